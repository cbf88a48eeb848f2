// Two issued-mode sandboxes on one PostgreSQL database, as two instances behind a load balancer: a tenant one
// provisions gets into the other at once, with either variant's credentials, into the same state; a rotation through
// one is seen by the other at once; a revocation through one is refused by the other at once, and its state is gone.
import { afterAll, describe, expect, it } from 'vitest';
import { openSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { freshDatabase } from './database.js';
import { send } from './send.js';

const TOKEN = 'admin-token-of-at-least-32-characters-long';
const opened: Sandbox[] = [];
afterAll(async () => {
  await Promise.all(opened.map((sandbox) => sandbox.close()));
});

async function instance(databaseUrl: string): Promise<Sandbox> {
  const sandbox = await openSandbox({
    store: 'postgres',
    databaseUrl,
    auth: 'issued',
    adminToken: TOKEN,
    seed: 'pg-issued',
  });
  opened.push(sandbox);
  return sandbox;
}

const admin = { authorization: `Bearer ${TOKEN}` };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const pair = (publicKey: string, secretKey: string) => ({ 'x-public-key': publicKey, 'x-secret-key': secretKey });

describe('issued mode on two instances sharing one database', () => {
  it('lets a tenant one provisions into the other at once, and refuses it on the other at once once revoked', async () => {
    const databaseUrl = await freshDatabase();
    const [one, two] = [await instance(databaseUrl), await instance(databaseUrl)];

    const created = await send(one, 'POST', '/_admin/tenants', admin);
    expect(created.status).toBe(201);
    const tenant = created.body.data as { id: string; access_token: string; public_key: string; secret_key: string };
    const payment = await send(
      two,
      'POST',
      '/payments',
      { ...bearer(tenant.access_token), 'idempotency-key': 'create-1' },
      { amount: '10.00', currency: 'EUR', requisite: { type: 'card' } },
    );
    expect(payment.status).toBe(200);
    const read = await send(
      one,
      'GET',
      `/merchant/v1/payments/${payment.body.data.id}`,
      pair(tenant.public_key, tenant.secret_key),
    );
    expect([read.status, read.body.data.id]).toEqual([200, payment.body.data.id]);
    expect((await send(two, 'GET', `/_admin/tenants/${tenant.id}`, admin)).body.data.status).toBe('active');

    const rotated = await send(two, 'POST', `/_admin/tenants/${tenant.id}/rotate`, admin, { overlap_seconds: 0 });
    expect(rotated.status).toBe(200);
    expect((await send(one, 'GET', '/payments', bearer(tenant.access_token))).status).toBe(401);
    expect((await send(one, 'GET', '/merchant/v1/payments', pair(tenant.public_key, tenant.secret_key))).status).toBe(
      401,
    );
    const fresh = rotated.body.data as { access_token: string; secret_key: string };
    expect((await send(one, 'GET', '/payments', bearer(fresh.access_token))).body.pagination.total).toBe(1);

    expect((await send(one, 'DELETE', `/_admin/tenants/${tenant.id}`, admin)).status).toBe(204);
    const refused = await send(two, 'GET', '/payments', bearer(fresh.access_token));
    expect([refused.status, refused.body.code, refused.body.detail]).toEqual([
      401,
      'unauthorized',
      'These credentials are not those of a tenant of this sandbox; its operator issues them (merchant-payments sandbox tenant create).',
    ]);
    expect((await send(two, 'GET', '/merchant/v1/payments', pair(tenant.public_key, fresh.secret_key))).status).toBe(
      401,
    );
    expect((await send(two, 'GET', '/_sandbox/clock', bearer(fresh.access_token))).status).toBe(401);
    expect((await send(two, 'GET', `/_admin/tenants/${tenant.id}`, admin)).body.data.status).toBe('revoked');
    // Its state went with it: no row of the tenant is left in the store's tables.
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        'SELECT (SELECT count(*) FROM sandbox_tenants WHERE id = $1)::int AS tenants, (SELECT count(*) FROM sandbox_objects WHERE tenant_id = $1)::int AS objects',
        [tenant.id],
      );
      expect(rows[0]).toEqual({ tenants: 0, objects: 0 });
    } finally {
      await client.end();
    }
  });

  it('makes no row for a refused credential', async () => {
    const databaseUrl = await freshDatabase();
    const sandbox = await instance(databaseUrl);
    for (let i = 0; i < 50; i++) {
      const n = String(i).padStart(22, '0');
      expect((await send(sandbox, 'GET', '/payments', bearer(`sbx_at_${n}${'A'.repeat(21)}`))).status).toBe(401);
      expect(
        (await send(sandbox, 'GET', '/merchant/v1/payments', pair(`sbx_pk_${n}`, `sbx_sk_${n}${'B'.repeat(21)}`)))
          .status,
      ).toBe(401);
    }
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query(
        'SELECT (SELECT count(*) FROM sandbox_tenants)::int AS tenants, (SELECT count(*) FROM sandbox_issued_tenants)::int AS issued',
      );
      expect(rows[0]).toEqual({ tenants: 0, issued: 0 });
    } finally {
      await client.end();
    }
  });
});
