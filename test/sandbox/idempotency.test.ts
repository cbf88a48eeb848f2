// Idempotency-Key at the door: a replay is marked Idempotent-Replayed, another body is 422, a second request while
// the first is still being checked is 409, a missing key is 400; a rejected request leaves the key free.
import { describe, expect, it } from 'vitest';
import { call, openTestSandbox, paymentBody } from './fixtures.js';

const A = { authorization: 'Bearer token-a' };

describe('Idempotency-Key over HTTP', () => {
  it('replays the first answer with Idempotent-Replayed: true, and creates nothing more', async () => {
    const sandbox = await openTestSandbox();
    const first = await call(sandbox, 'POST', '/payments', { ...A, 'idempotency-key': 'k-1' }, paymentBody());
    const again = await call(sandbox, 'POST', '/payments', { ...A, 'idempotency-key': 'k-1' }, paymentBody());
    expect([first.status, first.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(await again.json()).toEqual(await first.json());
    const list = await (await call(sandbox, 'GET', '/payments', A)).json();
    expect(list.pagination.total).toBe(1);
  });

  it('answers 422 idempotency_key_reused to the same key with another body', async () => {
    const sandbox = await openTestSandbox();
    await call(sandbox, 'POST', '/payments', { ...A, 'idempotency-key': 'k-2' }, paymentBody());
    const other = await call(
      sandbox,
      'POST',
      '/payments',
      { ...A, 'idempotency-key': 'k-2' },
      paymentBody({ amount: '1.00' }),
    );
    expect([other.status, (await other.json()).code]).toEqual([422, 'idempotency_key_reused']);
  });

  it('answers 409 to the second of two concurrent requests with one key, and runs the first once', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let checks = 0;
    // Note: a request check that takes its time, as a real service's work does: the key is held meanwhile.
    const sandbox = await openTestSandbox({ validate: { request: async () => void (++checks === 1 && (await gate)) } });
    const headers = { ...A, 'idempotency-key': 'k-3' };
    const first = call(sandbox, 'POST', '/payments', headers, paymentBody());
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await call(sandbox, 'POST', '/payments', headers, paymentBody());
    release();
    const done = await first;
    expect([second.status, (await second.json()).code]).toEqual([409, 'idempotency_request_in_progress']);
    expect(done.status).toBe(200);
    const third = await call(sandbox, 'POST', '/payments', headers, paymentBody());
    expect([third.status, third.headers.get('idempotent-replayed'), (await third.json()).data.id]).toEqual([
      200,
      'true',
      (await done.json()).data.id,
    ]);
  });

  it('answers 400 idempotency_key_missing to a state-changing request without a key', async () => {
    const sandbox = await openTestSandbox();
    const response = await call(
      sandbox,
      'POST',
      '/merchant/v1/payments',
      { 'x-public-key': 'p', 'x-secret-key': 's' },
      paymentBody(),
    );
    expect([response.status, (await response.json()).code]).toEqual([400, 'idempotency_key_missing']);
  });

  it('answers a rejected request with the check’s problem and leaves its key free for the corrected request', async () => {
    const sandbox = await openTestSandbox({
      validate: {
        request: ({ body }) =>
          (body as { amount?: string }).amount === 'bad'
            ? {
                status: 422,
                detail: 'See errors.',
                errors: [{ pointer: '/amount', detail: 'Must be a decimal string.' }],
              }
            : undefined,
      },
    });
    const headers = { ...A, 'idempotency-key': 'k-5' };
    const rejected = await call(sandbox, 'POST', '/payments', headers, paymentBody({ amount: 'bad' }));
    expect([rejected.status, await rejected.json()]).toEqual([
      422,
      expect.objectContaining({
        code: 'validation_failed',
        errors: [{ pointer: '/amount', detail: 'Must be a decimal string.' }],
      }),
    ]);
    const corrected = await call(sandbox, 'POST', '/payments', headers, paymentBody());
    expect([corrected.status, corrected.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  it('scopes a key to its tenant and operation', async () => {
    const sandbox = await openTestSandbox();
    const create = (auth: Record<string, string>) =>
      call(sandbox, 'POST', '/payments', { ...auth, 'idempotency-key': 'shared' }, paymentBody());
    await create(A);
    const otherTenant = await create({ authorization: 'Bearer token-b' });
    expect(otherTenant.headers.get('idempotent-replayed')).toBeNull();
    const payment = await (await create(A)).json();
    const cancel = await call(sandbox, 'POST', `/payments/${payment.data.id}/cancel`, {
      ...A,
      'idempotency-key': 'shared',
    });
    expect([cancel.status, cancel.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  it('forgets a key after 24 hours on the tenant clock', async () => {
    const sandbox = await openTestSandbox();
    const headers = { ...A, 'idempotency-key': 'k-6' };
    await call(sandbox, 'POST', '/payments', headers, paymentBody());
    await sandbox.advance({ accessToken: 'token-a' }, 24 * 3600);
    const later = await call(sandbox, 'POST', '/payments', headers, paymentBody({ amount: '1.00' }));
    expect([later.status, later.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });
});
