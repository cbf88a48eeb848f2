// auth: 'issued': only the registry's tenants get in, with either variant's credentials reaching one tenant; every
// refusal (unknown, revoked, wrong secret key, another tenant's, expired after a rotation) is the same 401; nothing is
// made for a refused credential, even 100,000 of them; a store without a registry is refused at creation.
import { describe, expect, it } from 'vitest';
import { createMemoryStore, type MemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import type { IssuedCredentials, TenantRegistry } from '../../packages/sandbox/src/stores/types.js';
import { NOT_ISSUED } from '../../packages/sandbox/src/variants/credentials.js';
import { createSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { call, clientA, clientB, newSandbox, paymentBody } from './fixtures.js';

const T0 = Date.UTC(2026, 0, 15, 10);
const DETAIL =
  'These credentials are not those of a tenant of this sandbox; its operator issues them (merchant-payments sandbox tenant create).';

/** An issued-mode sandbox on a memory store the test can count, with a wall clock the test moves. */
function issuedSandbox(options: Parameters<typeof newSandbox>[0] = {}) {
  const wall = { now: T0 };
  let memory: MemoryStore | undefined;
  const sandbox = newSandbox({
    auth: 'issued',
    now: () => wall.now,
    store: (settings) => (memory = createMemoryStore(settings)),
    ...options,
  });
  return { sandbox, wall, memory: memory!, registry: memory!.registry! };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const pair = (publicKey: string, secretKey: string) => ({ 'x-public-key': publicKey, 'x-secret-key': secretKey });

/** A 401's status, headers that matter and body, without its request id (the one part that differs per request). */
async function refusal(response: Response) {
  const { request_id: requestId, ...body } = await response.json();
  expect(requestId).toMatch(/^req_/);
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body };
}

const refusedA = (path: string) => ({
  status: 401,
  challenge: 'Bearer realm="merchant-payments-sandbox"',
  body: {
    type: 'https://docs.payments.example/problems/unauthorized',
    title: 'Unauthorized',
    status: 401,
    code: 'unauthorized',
    detail: DETAIL,
    instance: path,
  },
});
const refusedB = (path: string) => ({ ...refusedA(path), challenge: null });

describe("auth: 'issued'", () => {
  it('names every refusal with one detail, which the tests pin', () => {
    expect(NOT_ISSUED).toBe(DETAIL);
  });

  it("lets an issued tenant's access token and key pair reach the same state, kept under its ten_ id", async () => {
    const { sandbox, memory, registry } = issuedSandbox();
    const issued = await registry.create(T0);
    const a = clientA(sandbox, issued.accessToken);
    const b = clientB(sandbox, issued.publicKey, issued.secretKey);
    const created = await a.POST('/payments', { body: paymentBody() });
    expect(created.response.status).toBe(200);
    const id = created.data!.data.id;
    const read = await b.GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: id } } });
    expect([read.response.status, read.data?.data.id, read.data?.data.status]).toEqual([
      200,
      id,
      created.data!.data.status,
    ]);
    expect((await b.GET('/merchant/v1/payments')).data?.pagination.total).toBe(1);
    // The control API takes either variant's credentials, and moves the one clock.
    const advanced = await call(sandbox, 'POST', '/_sandbox/clock/advance', pair(issued.publicKey, issued.secretKey), {
      seconds: 60,
    });
    expect(advanced.status).toBe(200);
    const clock = await (await call(sandbox, 'GET', '/_sandbox/clock', bearer(issued.accessToken))).json();
    expect(clock.data.now).toBe('2026-01-01T00:01:00Z');
    expect(memory.tenantIds()).toEqual([issued.id]);
    expect(sandbox.tenantId({ tenantId: issued.id })).toBe(issued.id);
    expect((await sandbox.now({ tenantId: issued.id })).toISOString()).toBe('2026-01-01T00:01:00.000Z');
  });

  it("refuses an unknown token, a revoked tenant, a wrong secret key and another tenant's, with one 401 body", async () => {
    const { sandbox, registry } = issuedSandbox();
    const one = await registry.create(T0);
    const two = await registry.create(T0);
    const gone = await registry.create(T0);
    expect(await registry.revoke(gone.id, T0)).toBe(true);
    const cases: [string, string, Record<string, string>][] = [
      ['no credential (A)', '/payments', {}],
      ['an unknown token', '/payments', bearer(`sbx_at_${'x'.repeat(43)}`)],
      ['a token of another form', '/payments', bearer('token-a')],
      ['a public key as the token', '/payments', bearer(one.publicKey)],
      ["a revoked tenant's token", '/payments', bearer(gone.accessToken)],
      ['no credential (B)', '/merchant/v1/payments', {}],
      ['a wrong secret key', '/merchant/v1/payments', pair(one.publicKey, `sbx_sk_${'x'.repeat(43)}`)],
      ["another tenant's secret key", '/merchant/v1/payments', pair(one.publicKey, two.secretKey)],
      ['the access token as the secret key', '/merchant/v1/payments', pair(one.publicKey, one.accessToken)],
      ['an unknown public key', '/merchant/v1/payments', pair(`sbx_pk_${'x'.repeat(22)}`, one.secretKey)],
      ["a revoked tenant's key pair", '/merchant/v1/payments', pair(gone.publicKey, gone.secretKey)],
    ];
    for (const [name, path, headers] of cases) {
      const expected = path === '/payments' ? refusedA(path) : refusedB(path);
      expect(await refusal(await call(sandbox, 'GET', path, headers)), name).toEqual(expected);
    }
    // The control API refuses the same credentials with the same detail.
    const control = await refusal(await call(sandbox, 'GET', '/_sandbox/clock', bearer(gone.accessToken)));
    expect([control.status, control.body.detail, control.challenge]).toEqual([
      401,
      DETAIL,
      'Bearer realm="merchant-payments-sandbox"',
    ]);
    const controlB = await refusal(await call(sandbox, 'GET', '/_sandbox/clock', pair(one.publicKey, two.secretKey)));
    expect([controlB.status, controlB.body.detail]).toEqual([401, DETAIL]);
  });

  it('takes the credentials a rotation replaced until the overlap ends on the wall clock, and refuses them the same way after', async () => {
    const { sandbox, wall, registry } = issuedSandbox({ clock: 'manual' });
    const issued = await registry.create(T0);
    const rotated = (await registry.rotate(issued.id, 3600, T0)) as IssuedCredentials;
    const statuses = async () => [
      (await call(sandbox, 'GET', '/payments', bearer(issued.accessToken))).status,
      (await call(sandbox, 'GET', '/merchant/v1/payments', pair(issued.publicKey, issued.secretKey))).status,
      (await call(sandbox, 'GET', '/payments', bearer(rotated.accessToken))).status,
      (await call(sandbox, 'GET', '/merchant/v1/payments', pair(issued.publicKey, rotated.secretKey))).status,
    ];
    wall.now = T0 + 3_599_999;
    expect(await statuses()).toEqual([200, 200, 200, 200]);
    // Note: the tenant's own clock moving does nothing to the overlap, which is on the wall clock.
    await sandbox.advance({ tenantId: issued.id }, 7200);
    expect(await statuses()).toEqual([200, 200, 200, 200]);
    wall.now = T0 + 3_600_000;
    expect(await statuses()).toEqual([401, 401, 200, 200]);
    expect(await refusal(await call(sandbox, 'GET', '/payments', bearer(issued.accessToken)))).toEqual(
      refusedA('/payments'),
    );
    expect(
      await refusal(await call(sandbox, 'GET', '/merchant/v1/payments', pair(issued.publicKey, issued.secretKey))),
    ).toEqual(refusedB('/merchant/v1/payments'));
  });

  it('keeps open mode as it was: any token is a tenant of its own, with its own detail for a missing one', async () => {
    const sandbox = newSandbox();
    expect((await call(sandbox, 'GET', '/payments', bearer('anything'))).status).toBe(200);
    const missing = await refusal(await call(sandbox, 'GET', '/payments', {}));
    expect(missing.body.detail).toBe(
      'Send Authorization: Bearer <token>. In the sandbox any token works, and each token is a tenant of its own.',
    );
    expect(sandbox.tenantId({ accessToken: 'anything' })).toMatch(/^a_/);
  });

  it('names a tenant only by its id in the in-process calls, never looking a credential up', async () => {
    const { sandbox, registry } = issuedSandbox();
    const issued = await registry.create(T0);
    expect(() => sandbox.tenantId({ accessToken: issued.accessToken })).toThrow(
      /In issued mode a tenant is named by its id/,
    );
    await expect(sandbox.advance({ publicKey: issued.publicKey }, 1)).rejects.toThrow(TypeError);
  });

  it('refuses at creation a store that has no registry, naming what is missing', () => {
    const bare = (settings: Parameters<typeof createMemoryStore>[0]) => ({
      ...createMemoryStore(settings),
      registry: undefined,
    });
    expect(() => createSandbox({ auth: 'issued', store: bare })).toThrow(
      new TypeError(
        "auth: 'issued' needs a store with a registry of issued tenants (store.registry), as the memory and postgres stores have; the store the `store` factory made has none.",
      ),
    );
    expect(() => createSandbox({ adminToken: 'x'.repeat(32), store: bare })).toThrow(
      /^adminToken \(the admin API\) needs a store with a registry/,
    );
    const open = createSandbox({ store: bare });
    return open.close();
  });

  it('makes, keeps and caches nothing for 100,000 distinct unknown credentials', async () => {
    const { sandbox, memory, registry } = issuedSandbox({ rateLimit: 1000, validate: false });
    const issued = await registry.create(T0);
    expect((await call(sandbox, 'GET', '/payments', bearer(issued.accessToken))).status).toBe(200);
    const before = await counts(sandbox, memory, registry);
    expect(before).toEqual({ tenants: 1, issued: 1, buckets: 1 });
    // Note: half well-formed tokens, half key pairs, of which a fifth name the issued public key with a wrong secret key.
    const unknown = (n: number): Record<string, string> => {
      const digits = String(n).padStart(22, '0');
      return n % 2 === 0
        ? bearer(`sbx_at_${digits}${'A'.repeat(21)}`)
        : pair(n % 10 === 1 ? issued.publicKey : `sbx_pk_${digits}`, `sbx_sk_${digits}${'B'.repeat(21)}`);
    };
    // Note: 100,000 through the authentication every request starts with (the variants' and /_sandbox's), where
    // open mode makes its tenants, and the first 5,000 of them again as whole requests, through the pipeline, the rate
    // limiter, the log and the metrics, to merchant routes of both variants and /_sandbox; counting entries rather
    // than bytes, any one of them left behind would show.
    const total = 100_000;
    let refused = 0;
    for (let n = 0; n < total; n++) {
      const auth = await sandbox.runtime.authenticate(new Headers(unknown(n)));
      if (!auth.ok && auth.detail === DETAIL) refused += 1;
    }
    const paths = ['/payments', '/merchant/v1/payments', '/_sandbox/clock'];
    const answers = [];
    for (let start = 0; start < 5000; start += 250) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 250 }, (_, i) => call(sandbox, 'GET', paths[(start + i) % 3]!, unknown(start + i))),
        )),
      );
    }
    expect(refused).toBe(total);
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(5000);
    expect(await counts(sandbox, memory, registry)).toEqual(before);
  });
});

/** What a refused credential could have left behind, counted: tenants in the store, tenants issued, rate-limit buckets. */
async function counts(sandbox: Sandbox, memory: MemoryStore, registry: TenantRegistry) {
  return {
    tenants: memory.tenantIds().length,
    issued: (await registry.list({ limit: 100 }))!.tenants.length,
    buckets: sandbox.runtime.rateLimit!.size,
  };
}
