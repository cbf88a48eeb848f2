// The admin API under /_admin (packages/contract/openapi/admin/): served only with an admin token, which it compares in constant time
// and refuses with its own challenge; create, list (paged), retrieve, rotate and revoke on the store's registry, with
// the document's 400/422 for bad requests. Every answer is also checked here, independently of the sandbox's own
// validators, against the bundled document with Ajv, including that a problem's code is one its response shows.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ADMIN_OPERATIONS } from '../../packages/sandbox/src/admin/operations.js';
import { operationsOf } from '../../packages/contract/src/validation/index.js';
import { createMemoryStore, type MemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import type { Sandbox, SandboxOptions } from '../../packages/sandbox/src/index.js';
import { BundledSpec, type Node } from '../contract/bundled-spec.js';
import { call, newSandbox, ORIGIN, paymentBody } from './fixtures.js';

const TOKEN = 'admin-token-of-at-least-32-characters-long';
const T0 = Date.UTC(2026, 0, 15, 10);
const CHALLENGE = 'Bearer realm="merchant-payments-sandbox-admin"';

const spec = await BundledSpec.open('Admin', 'admin');
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const compiled = new Map<string, ValidateFunction>();

/** The operation of the admin document a method and path are, by its paths' templates. */
function operationOf(method: string, path: string) {
  const found = spec
    .operations()
    .find(
      (op) =>
        op.method === method.toUpperCase() && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
    );
  if (!found) throw new Error(`The admin document has no ${method} ${path}`);
  return found;
}

/** Violations of the admin document by an answer: its schema, and a problem's code among its examples. */
function violations(method: string, path: string, status: number, body: unknown): string[] {
  const op = operationOf(method, path);
  const response = spec.response(op, String(status));
  if (!response) return [`${op.operationId} declares no ${status}`];
  if (status === 204) return body === undefined ? [] : ['a 204 with a body'];
  const mediaType = status >= 400 ? 'application/problem+json' : 'application/json';
  const key = `${op.operationId} ${status}`;
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = ajv.compile(spec.expand(spec.bodySchema(response, mediaType)) as Node)));
  const found = validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  if (status >= 400) {
    const codes = Object.values((response.content?.[mediaType]?.examples ?? {}) as Node).map(
      (e) => spec.resolve(e as Node).value?.code,
    );
    if (!codes.includes((body as { code: string }).code))
      found.push(`${key} shows no example of ${(body as { code: string }).code}`);
  }
  return found;
}

/** An admin request: its status, challenge and JSON body, after checking the answer against the document. */
async function admin(
  sandbox: Sandbox,
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; raw?: string } = {},
) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.token !== null) headers.authorization = `Bearer ${options.token ?? TOKEN}`;
  const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const response = await sandbox.fetch(new Request(`${ORIGIN}${path}`, { method, headers, body }));
  const text = await response.text();
  const json = text === '' ? undefined : JSON.parse(text);
  const where = new URL(path, ORIGIN).pathname;
  expect(violations(method, where, response.status, json), `${method} ${path} ${response.status} ${text}`).toEqual([]);
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: json };
}

function adminSandbox(options: SandboxOptions = {}) {
  const wall = { now: T0 };
  let memory: MemoryStore | undefined;
  const sandbox = newSandbox({
    auth: 'issued',
    adminToken: TOKEN,
    now: () => wall.now,
    store: (settings) => (memory = createMemoryStore(settings)),
    ...options,
  });
  return { sandbox, wall, memory: memory! };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const keyed = (token: string) => ({ ...bearer(token), 'idempotency-key': `create-${token.slice(-8)}` });

describe('the admin API', () => {
  it('routes exactly the operations of its generated index', () => {
    expect(Object.keys(ADMIN_OPERATIONS).sort()).toEqual(
      operationsOf('admin')
        .map((op) => op.operationId)
        .sort(),
    );
  });

  it('is the ordinary 404 without an admin token, whatever the request carries', async () => {
    const sandbox = newSandbox({ auth: 'issued' });
    for (const [method, path] of [
      ['POST', '/_admin/tenants'],
      ['GET', '/_admin/tenants'],
      ['DELETE', '/_admin/tenants/ten_AAAAAAAAAAAAAAAAAAAAAA'],
    ]) {
      const response = await call(sandbox, method!, path!, bearer(TOKEN));
      const body = await response.json();
      expect([response.status, body.code, body.detail], `${method} ${path}`).toEqual([
        404,
        'not_found',
        `No operation of either variant is ${method} ${path}.`,
      ]);
    }
  });

  it("answers 401 with its own challenge to no token, a wrong one, a longer or shorter one, and a tenant's, saying whether one was sent", async () => {
    const { sandbox } = adminSandbox();
    const tenant = (await admin(sandbox, 'POST', '/_admin/tenants')).body.data;
    const missing = 'Send the admin token: Authorization: Bearer <SANDBOX_ADMIN_TOKEN>.';
    const refused = "The admin token was refused: it is not this sandbox's SANDBOX_ADMIN_TOKEN.";
    for (const [token, detail] of [
      [null, missing],
      ['', missing],
      ['wrong', refused],
      [`${TOKEN}x`, refused],
      [TOKEN.slice(0, -1), refused],
      [tenant.access_token, refused],
    ] as const) {
      const answer = await admin(sandbox, 'GET', '/_admin/tenants', { token });
      expect([answer.status, answer.challenge, answer.body.code, answer.body.detail], String(token)).toEqual([
        401,
        CHALLENGE,
        'unauthorized',
        detail,
      ]);
    }
    const basic = await sandbox.fetch(
      new Request(`${ORIGIN}/_admin/tenants`, {
        headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` },
      }),
    );
    expect(basic.status).toBe(401);
  });

  it("is not a way into the merchant or control API: the admin token is no tenant's credential", async () => {
    const { sandbox } = adminSandbox();
    expect((await call(sandbox, 'GET', '/payments', bearer(TOKEN))).status).toBe(401);
    expect((await call(sandbox, 'GET', '/_sandbox/clock', bearer(TOKEN))).status).toBe(401);
  });

  it('creates a tenant whose credentials get into both variants at once, and retrieves its record without a secret', async () => {
    const { sandbox, wall } = adminSandbox();
    const created = await admin(sandbox, 'POST', '/_admin/tenants');
    expect(created.status).toBe(201);
    const { id, access_token: accessToken, public_key: publicKey, secret_key: secretKey } = created.body.data;
    expect(Object.keys(created.body.data).sort()).toEqual(['access_token', 'id', 'public_key', 'secret_key']);
    expect((await call(sandbox, 'POST', '/payments', keyed(accessToken), paymentBody())).status).toBe(200);
    const listed = await call(sandbox, 'GET', '/merchant/v1/payments', {
      'x-public-key': publicKey,
      'x-secret-key': secretKey,
    });
    expect([listed.status, (await listed.json()).pagination.total]).toEqual([200, 1]);
    wall.now = T0 + 1000;
    const record = await admin(sandbox, 'GET', `/_admin/tenants/${id}`);
    expect(record).toEqual({
      status: 200,
      challenge: null,
      body: {
        data: {
          id,
          public_key: publicKey,
          status: 'active',
          created_at: '2026-01-15T10:00:00Z',
          rotated_at: null,
          previous_credentials_expire_at: null,
          revoked_at: null,
        },
      },
    });
    // An empty object is a body create takes too.
    expect((await admin(sandbox, 'POST', '/_admin/tenants', { body: {} })).status).toBe(201);
  });

  it("answers the document's 400 and 422 to requests that break it", async () => {
    const { sandbox, memory } = adminSandbox();
    const id = (await admin(sandbox, 'POST', '/_admin/tenants')).body.data.id;
    const cases: [string, string, { body?: unknown; raw?: string }, number, string | undefined][] = [
      ['POST', '/_admin/tenants', { raw: '{"x":' }, 400, undefined],
      ['POST', '/_admin/tenants', { body: { name: 'shop' } }, 422, ''],
      ['GET', '/_admin/tenants?limit=0', {}, 422, '/limit'],
      ['GET', '/_admin/tenants?limit=101', {}, 422, '/limit'],
      ['GET', '/_admin/tenants?limit=ten', {}, 422, '/limit'],
      ['GET', '/_admin/tenants?starting_after=t1', {}, 422, '/starting_after'],
      ['GET', '/_admin/tenants/not-a-tenant', {}, 422, '/tenantId'],
      ['DELETE', '/_admin/tenants/ten_short', {}, 422, '/tenantId'],
      ['POST', `/_admin/tenants/${id}/rotate`, { body: { overlap_seconds: 604_801 } }, 422, '/overlap_seconds'],
      ['POST', `/_admin/tenants/${id}/rotate`, { body: { overlap_seconds: -1 } }, 422, '/overlap_seconds'],
      ['POST', `/_admin/tenants/${id}/rotate`, { body: { overlap_seconds: 60, extra: true } }, 422, undefined],
    ];
    for (const [method, path, options, status, pointer] of cases) {
      const answer = await admin(sandbox, method, path, options);
      expect([answer.status, answer.body.code], `${method} ${path}`).toEqual([
        status,
        status === 400 ? 'bad_request' : 'validation_failed',
      ]);
      if (pointer !== undefined)
        expect(
          answer.body.errors.map((e: { pointer: string }) => e.pointer),
          `${method} ${path}`,
        ).toContain(pointer);
    }
    // None of them changed anything: one tenant, never rotated.
    expect(
      (await admin(sandbox, 'GET', '/_admin/tenants')).body.data.map((t: { id: string; rotated_at: null }) => [
        t.id,
        t.rotated_at,
      ]),
    ).toEqual([[id, null]]);
    expect(memory.tenantIds()).toEqual([]);
  });

  it('lists newest first in pages of limit (20 by default), walking on with starting_after; an unknown one is 404', async () => {
    const { sandbox } = adminSandbox();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) ids.push((await admin(sandbox, 'POST', '/_admin/tenants')).body.data.id);
    const newestFirst = [...ids].reverse();
    const first = await admin(sandbox, 'GET', '/_admin/tenants');
    expect([first.body.data.length, first.body.has_more]).toEqual([20, true]);
    expect(first.body.data.map((t: { id: string }) => t.id)).toEqual(newestFirst.slice(0, 20));
    const seen: string[] = [];
    let after = '';
    for (let pages = 0; pages < 10; pages++) {
      const page = await admin(sandbox, 'GET', `/_admin/tenants?limit=10${after ? `&starting_after=${after}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((t: { id: string }) => t.id));
      if (!page.body.has_more) break;
      after = page.body.data.at(-1).id;
    }
    expect(seen).toEqual(newestFirst);
    const unknown = await admin(sandbox, 'GET', '/_admin/tenants?starting_after=ten_AAAAAAAAAAAAAAAAAAAAAA');
    expect([unknown.status, unknown.body.code, unknown.body.detail]).toEqual([
      404,
      'not_found',
      'No tenant has the id ten_AAAAAAAAAAAAAAAAAAAAAA.',
    ]);
  });

  it('rotates: new credentials, the replaced ones until previous_credentials_expire_at (a day by default), 404 and 409', async () => {
    const { sandbox, wall } = adminSandbox();
    const tenant = (await admin(sandbox, 'POST', '/_admin/tenants')).body.data;
    wall.now = T0 + 60_000;
    const rotated = await admin(sandbox, 'POST', `/_admin/tenants/${tenant.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toMatchObject({
      id: tenant.id,
      public_key: tenant.public_key,
      previous_credentials_expire_at: '2026-01-16T10:01:00Z',
    });
    expect(rotated.body.data.access_token).not.toBe(tenant.access_token);
    expect((await admin(sandbox, 'GET', `/_admin/tenants/${tenant.id}`)).body.data).toMatchObject({
      rotated_at: '2026-01-15T10:01:00Z',
      previous_credentials_expire_at: '2026-01-16T10:01:00Z',
    });
    expect((await call(sandbox, 'GET', '/payments', bearer(tenant.access_token))).status).toBe(200);
    const now = await admin(sandbox, 'POST', `/_admin/tenants/${tenant.id}/rotate`, { body: { overlap_seconds: 0 } });
    expect(now.body.data.previous_credentials_expire_at).toBe('2026-01-15T10:01:00Z');
    // The second rotation ended the first pair and, with no overlap, the second one too.
    for (const token of [tenant.access_token, rotated.body.data.access_token])
      expect((await call(sandbox, 'GET', '/payments', bearer(token))).status).toBe(401);
    expect((await call(sandbox, 'GET', '/payments', bearer(now.body.data.access_token))).status).toBe(200);
    const unknown = await admin(sandbox, 'POST', '/_admin/tenants/ten_AAAAAAAAAAAAAAAAAAAAAA/rotate');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
    expect((await admin(sandbox, 'DELETE', `/_admin/tenants/${tenant.id}`)).status).toBe(204);
    const revoked = await admin(sandbox, 'POST', `/_admin/tenants/${tenant.id}/rotate`, {
      body: { overlap_seconds: 60 },
    });
    expect([revoked.status, revoked.body.code, revoked.body.detail]).toEqual([
      409,
      'tenant_revoked',
      `Tenant ${tenant.id} was revoked; create a new tenant instead.`,
    ]);
  });

  it("revokes: every credential refused at once, the tenant's sandbox state deleted, the record kept; again 204, unknown 404", async () => {
    const { sandbox, wall, memory } = adminSandbox();
    const tenant = (await admin(sandbox, 'POST', '/_admin/tenants')).body.data;
    const other = (await admin(sandbox, 'POST', '/_admin/tenants')).body.data;
    const rotated = (await admin(sandbox, 'POST', `/_admin/tenants/${tenant.id}/rotate`)).body.data;
    for (const token of [tenant.access_token, other.access_token])
      expect((await call(sandbox, 'POST', '/payments', keyed(token), paymentBody())).status).toBe(200);
    expect(memory.tenantIds().sort()).toEqual([tenant.id, other.id].sort());
    wall.now = T0 + 5000;
    expect(await admin(sandbox, 'DELETE', `/_admin/tenants/${tenant.id}`)).toEqual({
      status: 204,
      challenge: null,
      body: undefined,
    });
    const refused = [
      await call(sandbox, 'GET', '/payments', bearer(tenant.access_token)),
      await call(sandbox, 'GET', '/payments', bearer(rotated.access_token)),
      await call(sandbox, 'GET', '/merchant/v1/payments', {
        'x-public-key': tenant.public_key,
        'x-secret-key': rotated.secret_key,
      }),
      await call(sandbox, 'GET', '/_sandbox/clock', bearer(rotated.access_token)),
    ];
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(memory.tenantIds()).toEqual([other.id]);
    const record = { status: 'revoked', revoked_at: '2026-01-15T10:00:05Z' };
    expect((await admin(sandbox, 'GET', `/_admin/tenants/${tenant.id}`)).body.data).toMatchObject(record);
    wall.now = T0 + 9000;
    expect((await admin(sandbox, 'DELETE', `/_admin/tenants/${tenant.id}`)).status).toBe(204);
    expect((await admin(sandbox, 'GET', `/_admin/tenants/${tenant.id}`)).body.data).toMatchObject(record);
    const unknown = await admin(sandbox, 'DELETE', '/_admin/tenants/ten_AAAAAAAAAAAAAAAAAAAAAA');
    expect([unknown.status, unknown.body.code]).toEqual([404, 'not_found']);
    // The other tenant goes on.
    expect((await call(sandbox, 'GET', '/payments', bearer(other.access_token))).status).toBe(200);
  });

  it('shows the settings every tenant gets: the limits as the sandbox was started with, and the egress rule', async () => {
    const { sandbox } = adminSandbox({
      rateLimit: 25,
      quotas: { objects: 500, webhookEndpoints: 3, events: 2000 },
      testTenants: { max: 7, idleSeconds: 3600 },
      allowWebhookHosts: ['10.20.0.0/16', 'hooks.internal'],
      merchantConcurrency: 3,
      merchantQueueMs: 1500,
      merchantQueueLength: 40,
    });
    const settings = await admin(sandbox, 'GET', '/_admin/settings');
    expect([settings.status, settings.body]).toEqual([
      200,
      {
        data: {
          rate_limit_per_second: 25,
          max_objects: 500,
          max_webhook_endpoints: 3,
          event_retention: 2000,
          test_tenants: { max: 7, idle_seconds: 3600 },
          webhook_endpoints: { public_addresses_only: true, also_allowed: ['10.20.0.0/16', 'hooks.internal'] },
          merchant_budget: { concurrency: 3, queue_ms: 1500, queue_length: 40 },
          // Note: the memory store has no database, so no statement bounds.
          statement_timeout_ms: null,
          lock_timeout_ms: null,
        },
      },
    ]);
    const open = await admin(adminSandbox({ auth: 'open' }).sandbox, 'GET', '/_admin/settings');
    expect(open.body.data).toMatchObject({
      rate_limit_per_second: null,
      // Note: a quarter of the default pool of 10.
      merchant_budget: { concurrency: 2, queue_ms: 2000, queue_length: 100 },
      webhook_endpoints: { public_addresses_only: false, also_allowed: [] },
    });
    expect((await admin(sandbox, 'GET', '/_admin/settings', { token: 'wrong' })).status).toBe(401);
  });

  it('is served in open mode too when it has a token, provisioning into the same registry', async () => {
    const { sandbox } = adminSandbox({ auth: 'open' });
    const created = await admin(sandbox, 'POST', '/_admin/tenants');
    expect(created.status).toBe(201);
    expect((await admin(sandbox, 'GET', '/_admin/tenants')).body.data.map((t: { id: string }) => t.id)).toEqual([
      created.body.data.id,
    ]);
  });
});
