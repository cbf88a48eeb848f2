// Test tenants (POST, GET and DELETE /_sandbox/tenants): an issued tenant, or an open one, makes tenants of its own,
// each isolated, held to the same quotas and egress rule, capped, expired when unused, and deleted with its parent's
// reset or revocation. Runs on both stores (vitest.config.ts's bothStores).
import { describe, expect, it, vi } from 'vitest';
import { createSandboxControlClient, type Sandbox } from '../../packages/sandbox/src/index.js';
import { isProblem } from '../../packages/contract/src/index.js';
import { TenantRevokedError } from '../../packages/sandbox/src/stores/tenant-revoked-error.js';
import { NOT_A_TEST_TENANT } from '../../packages/sandbox/src/variants/credentials.js';
import { allEvents } from './state-reads.js';
import { call, clientA, clientB, ORIGIN, openTestSandbox, paymentBody } from './fixtures.js';

const T0 = Date.UTC(2026, 0, 15, 10);
const ADMIN = 'an-admin-token-of-at-least-32-characters';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const pair = (publicKey: string, secretKey: string) => ({ 'x-public-key': publicKey, 'x-secret-key': secretKey });

interface Made {
  id: string;
  access_token: string;
  public_key: string;
  secret_key: string;
  expires_at: string;
}

/** A sandbox whose wall clock the test moves; issued mode with an admin API unless `auth` says otherwise. */
async function sandboxAt(options: Parameters<typeof openTestSandbox>[0] = {}) {
  const wall = { now: T0 };
  const sandbox = await openTestSandbox({ auth: 'issued', adminToken: ADMIN, now: () => wall.now, ...options });
  return { sandbox, wall };
}

async function issue(sandbox: Sandbox) {
  const response = await call(sandbox, 'POST', '/_admin/tenants', bearer(ADMIN));
  expect(response.status).toBe(201);
  return (await response.json()).data as { id: string; access_token: string; public_key: string; secret_key: string };
}

async function makeTest(sandbox: Sandbox, headers: Record<string, string>): Promise<Made> {
  const response = await call(sandbox, 'POST', '/_sandbox/tenants', headers);
  expect(response.status).toBe(201);
  return (await response.json()).data as Made;
}

/** The problem's status, code and detail. */
async function problem(response: Response) {
  const body = await response.json();
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return { status: response.status, code: body.code, detail: body.detail as string };
}

/** How many payments the tenant's state holds, read through the store; `gone` once deleted, as it is never made again. */
const paymentsOf = (sandbox: Sandbox, tenantId: string) =>
  sandbox.store
    .transaction(tenantId, (state) => state.payments.count())
    .catch((error: unknown) => {
      if (error instanceof TenantRevokedError) return 'gone';
      throw error;
    });

describe('test tenants', () => {
  it('makes a test tenant with its own credentials, isolated from its parent, which the parent lists with its expiry', async () => {
    const { sandbox } = await sandboxAt();
    const parent = await issue(sandbox);
    const control = createSandboxControlClient({
      baseUrl: ORIGIN,
      accessToken: parent.access_token,
      fetch: sandbox.fetch,
      retry: false,
    });
    const made = await control.POST('/_sandbox/tenants');
    expect(made.response.status).toBe(201);
    const test = made.data!.data;
    expect(test).toEqual({
      id: expect.stringMatching(/^ten_[A-Za-z0-9_-]{22}$/),
      access_token: expect.stringMatching(/^sbx_at_/),
      public_key: expect.stringMatching(/^sbx_pk_/),
      secret_key: expect.stringMatching(/^sbx_sk_/),
      expires_at: '2026-01-16T10:00:00Z',
    });
    // Both variants' credentials reach the one test tenant, and nothing of it reaches the parent.
    const a = clientA(sandbox, test.access_token);
    const created = await a.POST('/payments', { body: paymentBody() });
    expect(created.response.status).toBe(200);
    const b = clientB(sandbox, test.public_key, test.secret_key);
    expect((await b.GET('/merchant/v1/payments')).data?.pagination.total).toBe(1);
    expect((await clientA(sandbox, parent.access_token).GET('/payments')).data?.pagination.total).toBe(0);
    const listed = await control.GET('/_sandbox/tenants');
    expect(listed.data).toEqual({
      data: [
        { id: test.id, public_key: test.public_key, created_at: '2026-01-15T10:00:00Z', expires_at: test.expires_at },
      ],
      pagination: { total: 1, limit: 20, offset: 0 },
    });
    // Never a secret in the list; and the admin API's list is the operator's tenants only.
    expect(JSON.stringify(listed.data)).not.toContain(test.secret_key);
    const admin = await (await call(sandbox, 'GET', '/_admin/tenants', bearer(ADMIN))).json();
    expect(admin.data.map((t: { id: string }) => t.id)).toEqual([parent.id]);
  });

  it("refuses a test tenant's own test tenant with 403, and lists none for it", async () => {
    const { sandbox } = await sandboxAt();
    const parent = await issue(sandbox);
    const test = await makeTest(sandbox, pair(parent.public_key, parent.secret_key));
    expect(await problem(await call(sandbox, 'POST', '/_sandbox/tenants', bearer(test.access_token)))).toEqual({
      status: 403,
      code: 'forbidden',
      detail:
        "These credentials are a test tenant's, and a test tenant can't make test tenants; use its parent's credentials.",
    });
    const list = await (await call(sandbox, 'GET', '/_sandbox/tenants', bearer(test.access_token))).json();
    expect(list).toEqual({ data: [], pagination: { total: 0, limit: 20, offset: 0 } });
  });

  it('holds a parent to --max-test-tenants with 422 limit_reached, and a deleted one makes room', async () => {
    const { sandbox } = await sandboxAt({ testTenants: { max: 2 } });
    const parent = await issue(sandbox);
    const headers = bearer(parent.access_token);
    const first = await makeTest(sandbox, headers);
    await makeTest(sandbox, headers);
    const refused = await problem(await call(sandbox, 'POST', '/_sandbox/tenants', headers));
    expect(refused).toEqual({
      status: 422,
      code: 'limit_reached',
      detail:
        'This tenant already has 2 test tenants; delete one first (DELETE /_sandbox/tenants/{tenantId}), or let an unused one expire after 86400 seconds.',
    });
    expect((await call(sandbox, 'DELETE', `/_sandbox/tenants/${first.id}`, headers)).status).toBe(204);
    expect((await call(sandbox, 'POST', '/_sandbox/tenants', headers)).status).toBe(201);
  });

  it("deletes a test tenant with its state; another parent's id, a deleted one and a malformed one are refused alike", async () => {
    const { sandbox } = await sandboxAt();
    const parent = await issue(sandbox);
    const other = await issue(sandbox);
    const test = await makeTest(sandbox, bearer(parent.access_token));
    const theirs = await makeTest(sandbox, bearer(other.access_token));
    await clientA(sandbox, test.access_token).POST('/payments', { body: paymentBody() });
    expect(await paymentsOf(sandbox, test.id)).toBe(1);
    const notFound = async (id: string) =>
      problem(await call(sandbox, 'DELETE', `/_sandbox/tenants/${id}`, bearer(parent.access_token)));
    // Another parent's test tenant reads exactly as an id nobody has.
    expect(await notFound(theirs.id)).toEqual({
      status: 404,
      code: 'not_found',
      detail: `No test tenant of these credentials has the id ${theirs.id}.`,
    });
    expect(await notFound('ten_AAAAAAAAAAAAAAAAAAAAAA')).toEqual({
      status: 404,
      code: 'not_found',
      detail: 'No test tenant of these credentials has the id ten_AAAAAAAAAAAAAAAAAAAAAA.',
    });
    expect((await clientA(sandbox, theirs.access_token).GET('/payments')).response.status).toBe(200);
    const malformed = await call(sandbox, 'DELETE', '/_sandbox/tenants/not-a-tenant', bearer(parent.access_token));
    const body = await malformed.json();
    expect([malformed.status, body.code, body.errors?.[0]?.pointer]).toEqual([422, 'validation_failed', '/tenantId']);
    // A retry with the same Idempotency-Key answers the first 204 again; without one, the test tenant is gone (404).
    const keyed = { ...bearer(parent.access_token), 'idempotency-key': 'delete-test-tenant-1' };
    expect((await call(sandbox, 'DELETE', `/_sandbox/tenants/${test.id}`, keyed)).status).toBe(204);
    expect((await call(sandbox, 'DELETE', `/_sandbox/tenants/${test.id}`, keyed)).status).toBe(204);
    expect((await clientA(sandbox, test.access_token).GET('/payments')).response.status).toBe(401);
    expect(await paymentsOf(sandbox, test.id)).toBe('gone');
    expect((await notFound(test.id)).status).toBe(404);
  });

  it("deletes every test tenant with its parent's reset, and with its revocation", async () => {
    const { sandbox } = await sandboxAt();
    const parent = await issue(sandbox);
    const tests = [
      await makeTest(sandbox, bearer(parent.access_token)),
      await makeTest(sandbox, bearer(parent.access_token)),
    ];
    for (const test of tests) await clientA(sandbox, test.access_token).POST('/payments', { body: paymentBody() });
    expect((await call(sandbox, 'POST', '/_sandbox/reset', bearer(parent.access_token))).status).toBe(204);
    for (const test of tests) {
      expect((await clientA(sandbox, test.access_token).GET('/payments')).response.status).toBe(401);
      expect(await paymentsOf(sandbox, test.id)).toBe('gone');
    }
    const later = await makeTest(sandbox, bearer(parent.access_token));
    expect((await call(sandbox, 'DELETE', `/_admin/tenants/${parent.id}`, bearer(ADMIN))).status).toBe(204);
    expect(
      (await clientB(sandbox, later.public_key, later.secret_key).GET('/merchant/v1/payments')).response.status,
    ).toBe(401);
  });

  it('expires a test tenant no request used for its idle time, moves the expiry with use, and the sweep deletes its state', async () => {
    const { sandbox, wall } = await sandboxAt({ testTenants: { idleSeconds: 20 } });
    const parent = await issue(sandbox);
    const test = await makeTest(sandbox, bearer(parent.access_token));
    expect(test.expires_at).toBe('2026-01-15T10:00:20Z');
    await clientA(sandbox, test.access_token).POST('/payments', { body: paymentBody() });
    wall.now = T0 + 10_000;
    expect((await clientA(sandbox, test.access_token).GET('/payments')).response.status).toBe(200);
    const listed = await (await call(sandbox, 'GET', '/_sandbox/tenants', bearer(parent.access_token))).json();
    expect(listed.data[0].expires_at).toBe('2026-01-15T10:00:30Z');
    wall.now = T0 + 30_000;
    expect((await clientA(sandbox, test.access_token).GET('/payments')).response.status).toBe(401);
    expect(await paymentsOf(sandbox, test.id)).toBe(1);
    // Note: the sweep looks every tenth of the idle time (2 s here), on the real timer.
    await vi.waitFor(async () => expect(await paymentsOf(sandbox, test.id)).toBe('gone'), {
      timeout: 10_000,
      interval: 200,
    });
    const after = await (await call(sandbox, 'GET', '/_sandbox/tenants', bearer(parent.access_token))).json();
    expect(after.pagination.total).toBe(0);
  });

  it('holds a test tenant to the quotas and the egress rule every tenant has', async () => {
    const { sandbox } = await sandboxAt({ quotas: { webhookEndpoints: 1 } });
    const parent = await issue(sandbox);
    const test = await makeTest(sandbox, bearer(parent.access_token));
    const endpoint = (url: string) =>
      call(sandbox, 'POST', '/_sandbox/webhook-endpoints', bearer(test.access_token), { url });
    const local = await problem(await endpoint('http://127.0.0.1:3000/hook'));
    expect([local.status, local.code]).toEqual([422, 'webhook_host_forbidden']);
    expect((await endpoint('https://93.184.216.34/hook')).status).toBe(201);
    const past = await problem(await endpoint('https://93.184.216.35/hook'));
    expect([past.status, past.code]).toEqual([422, 'limit_reached']);
  });

  it('works in open mode too: an open tenant makes, lists and deletes test tenants, and its reset deletes them', async () => {
    const { sandbox } = await sandboxAt({ auth: 'open', adminToken: undefined });
    const test = await makeTest(sandbox, bearer('token-of-the-suite'));
    const a = clientA(sandbox, test.access_token);
    const b = clientB(sandbox, test.public_key, test.secret_key);
    const created = await a.POST('/payments', { body: paymentBody() });
    const id = created.data!.data.id;
    expect(
      (await b.GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: id } } })).data?.data.id,
    ).toBe(id);
    expect(await paymentsOf(sandbox, test.id)).toBe(1);
    expect((await clientA(sandbox, 'token-of-the-suite').GET('/payments')).data?.pagination.total).toBe(0);
    const list = await (await call(sandbox, 'GET', '/_sandbox/tenants', bearer('token-of-the-suite'))).json();
    expect(list.data.map((t: { id: string }) => t.id)).toEqual([test.id]);
    expect((await call(sandbox, 'POST', '/_sandbox/tenants', bearer(test.access_token))).status).toBe(403);
    // A test tenant's public key with another secret key is refused, as in issued mode, and not made an open tenant.
    const wrong = await clientB(sandbox, test.public_key, `sbx_sk_${'x'.repeat(43)}`).GET('/merchant/v1/payments');
    expect([wrong.response.status, isProblem(wrong.error) && wrong.error.detail]).toEqual([401, NOT_A_TEST_TENANT]);
    expect((await call(sandbox, 'POST', '/_sandbox/reset', bearer('token-of-the-suite'))).status).toBe(204);
    expect(await paymentsOf(sandbox, test.id)).toBe('gone');
    // A deleted test tenant's credentials are refused too, rather than naming a new, empty open tenant.
    const gone = await a.GET('/payments');
    expect([gone.response.status, isProblem(gone.error) && gone.error.detail]).toEqual([401, NOT_A_TEST_TENANT]);
    expect((await b.GET('/merchant/v1/payments')).response.status).toBe(401);
  });

  it("keeps the test tenant's event log its own", async () => {
    const { sandbox } = await sandboxAt();
    const parent = await issue(sandbox);
    const test = await makeTest(sandbox, bearer(parent.access_token));
    await clientA(sandbox, test.access_token).POST('/payments', { body: paymentBody() });
    const advanced = await call(sandbox, 'POST', '/_sandbox/clock/advance', bearer(test.access_token), {
      seconds: 3600,
    });
    expect(advanced.status).toBe(200);
    expect(await sandbox.store.transaction(test.id, (state) => allEvents(state).length)).toBeGreaterThan(0);
    expect(await sandbox.store.transaction(parent.id, (state) => allEvents(state).length)).toBe(0);
  });
});
