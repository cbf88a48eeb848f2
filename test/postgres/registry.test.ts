// The postgres store's registry of issued tenants: the shared suite (test/sandbox/registry-suite.ts) on a database of
// its own per case, and what the table keeps of the secrets: their SHA-256 digests, never the secrets.
import { createHash } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createHead } from '../../packages/sandbox/src/core/index.js';
import { createPostgresStore } from '../../packages/sandbox/src/stores/postgres/index.js';
import type { TenantStore } from '../../packages/sandbox/src/stores/types.js';
import { registrySuite } from '../sandbox/registry-suite.js';
import { freshDatabase } from './database.js';

const stores: TenantStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

async function storeOn(url: string): Promise<TenantStore> {
  const store = await createPostgresStore({
    connectionString: url,
    newTenant: (id) =>
      createHead(id, { clock: 'manual', start: 0, seed: 's', retryCompression: 60, eventLogLimit: 100 }),
  });
  stores.push(store);
  return store;
}

registrySuite('postgres', async () => (await storeOn(await freshDatabase())).registry!);

describe('the postgres registry', () => {
  it('keeps the SHA-256 of the access token and the secret key, and neither secret, in its table', async () => {
    const url = await freshDatabase();
    const registry = (await storeOn(url)).registry!;
    const issued = await registry.create(Date.UTC(2026, 0, 1));
    const rotated = (await registry.rotate(issued.id, 60, Date.UTC(2026, 0, 1))) as {
      accessToken: string;
      secretKey: string;
    };
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT * FROM sandbox_issued_tenants');
      const sha = (text: string) => createHash('sha256').update(text).digest();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        id: issued.id,
        public_key: issued.publicKey,
        access_token_digest: sha(rotated.accessToken),
        secret_key_digest: sha(rotated.secretKey),
        previous_access_token_digest: sha(issued.accessToken),
        previous_secret_key_digest: sha(issued.secretKey),
      });
      const dump = (await client.query('SELECT t::text AS row FROM sandbox_issued_tenants t')).rows[0].row as string;
      for (const secret of [issued.accessToken, issued.secretKey, rotated.accessToken, rotated.secretKey]) {
        expect(dump).not.toContain(secret);
        expect(dump).not.toContain(secret.slice('sbx_xx_'.length));
      }
    } finally {
      await client.end();
    }
  });

  it('is seen by another store on the same database at once: created, rotated, revoked', async () => {
    const url = await freshDatabase();
    const [one, two] = [(await storeOn(url)).registry!, (await storeOn(url)).registry!];
    const now = Date.UTC(2026, 0, 1);
    const issued = await one.create(now);
    expect((await two.tenantOfAccessToken(issued.accessToken, now))?.tenant).toBe(issued.id);
    const rotated = (await two.rotate(issued.id, 0, now)) as { accessToken: string };
    expect(await one.tenantOfAccessToken(issued.accessToken, now)).toBeUndefined();
    expect((await one.tenantOfAccessToken(rotated.accessToken, now))?.tenant).toBe(issued.id);
    expect(await one.revoke(issued.id, now)).toBe(true);
    expect(await two.tenantOfAccessToken(rotated.accessToken, now)).toBeUndefined();
    expect(await two.get(issued.id)).toMatchObject({ status: 'revoked', revokedAt: now });
  });
});
