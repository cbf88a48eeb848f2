// An Idempotency-Key whose first request died holding it (its process killed between taking the key and keeping the
// answer): 409 while its lease runs, then the next request with the key takes it and runs, on the wall clock alone.
import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_LEASE_MS } from '../../packages/sandbox/src/core/index.js';
import { abandonedHold, call, expectRunsOnceThenReplays, newSandbox, paymentBody } from './fixtures.js';

const A = { authorization: 'Bearer token-a' };
const START = Date.parse('2026-03-01T12:00:00Z');

describe('a key abandoned in progress', () => {
  it('answers 409 until its lease passes on the wall clock, then runs the request once, and replays it', async () => {
    let wall = START;
    const sandbox = newSandbox({ now: () => wall });
    await abandonedHold(sandbox, 'k-died', paymentBody());
    const headers = { ...A, 'idempotency-key': 'k-died' };
    wall = START + IDEMPOTENCY_LEASE_MS - 1;
    const held = await call(sandbox, 'POST', '/payments', headers, paymentBody());
    expect([held.status, (await held.json()).code]).toEqual([409, 'idempotency_request_in_progress']);
    wall = START + IDEMPOTENCY_LEASE_MS;
    const other = await call(sandbox, 'POST', '/payments', headers, paymentBody({ amount: '1.00' }));
    expect([other.status, (await other.json()).code]).toEqual([422, 'idempotency_key_reused']);
    await expectRunsOnceThenReplays(sandbox, headers);
  });

  it('reads the lease on the wall clock, so an advance of the tenant’s clock by days leaves the key held', async () => {
    const wall = START;
    const sandbox = newSandbox({ now: () => wall });
    await abandonedHold(sandbox, 'k-clock', paymentBody());
    await call(sandbox, 'POST', '/_sandbox/clock/advance', A, { seconds: 3 * 86_400 });
    const held = await call(sandbox, 'POST', '/payments', { ...A, 'idempotency-key': 'k-clock' }, paymentBody());
    expect(held.status).toBe(409);
  });
});
