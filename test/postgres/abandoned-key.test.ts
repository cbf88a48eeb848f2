// Two sandbox instances on one database: a key whose holder died (instance 1 took it and was closed without an
// answer) answers 409 on instance 2 until its lease passes on the wall clock, then runs there; and a key whose holder
// lives (an advance waiting on a receiver) has its renewed lease written, so instance 2 keeps answering 409.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { IDEMPOTENCY_LEASE_MS } from '../../packages/sandbox/src/core/index.js';
import { openSandbox, type SandboxOptions } from '../../packages/sandbox/src/index.js';
import { tenantIdOf } from '../../packages/sandbox/src/variants/credentials.js';
import {
  abandonedHold,
  call,
  expectRunsOnceThenReplays,
  heldReceiver,
  HOOK_URL,
  moveWall,
  paymentBody,
} from '../sandbox/fixtures.js';
import { freshDatabase } from './database.js';

const A = { authorization: 'Bearer token-a' };
const START = Date.parse('2026-03-01T12:00:00Z');

/** Two instances on a new database, closed when the test ends (the first may be closed before). */
async function twoInstances(options: SandboxOptions) {
  const databaseUrl = await freshDatabase();
  const open = async () => {
    const sandbox = await openSandbox({ seed: 'test', ...options, store: 'postgres', databaseUrl });
    let closed = false;
    const close = async () => void (closed || ((closed = true), await sandbox.close()));
    onTestFinished(close);
    return Object.assign(sandbox, { close });
  };
  return [await open(), await open()] as const;
}

describe('an Idempotency-Key across instances', () => {
  it('runs a retry on instance 2 once the lease of a key instance 1 took and died holding has passed', async () => {
    let wall = START;
    const [first, second] = await twoInstances({ now: () => wall });
    await abandonedHold(first, 'k-died', paymentBody());
    await first.close();
    const headers = { ...A, 'idempotency-key': 'k-died' };
    wall = START + IDEMPOTENCY_LEASE_MS - 1;
    const held = await call(second, 'POST', '/payments', headers, paymentBody());
    expect([held.status, (await held.json()).code]).toEqual([409, 'idempotency_request_in_progress']);
    wall = START + IDEMPOTENCY_LEASE_MS;
    await expectRunsOnceThenReplays(second, headers);
  });

  it('writes the lease instance 1 renews while its advance runs, so instance 2 answers 409 long past the first lease', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    onTestFinished(() => void vi.useRealTimers());
    let wall = START;
    const { fetch, holding, release } = heldReceiver();
    const [first, second] = await twoInstances({ now: () => wall, webhookUrls: [HOOK_URL], fetch });
    await call(first, 'POST', '/payments', { ...A, 'idempotency-key': 'pay-1' }, paymentBody());
    const headers = { ...A, 'idempotency-key': 'adv-renewed' };
    const advancing = call(first, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    await holding;
    await moveWall((ms) => (wall += ms), 3 * IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_LEASE_MS / 10);
    // Note: instance 1's renewals were queued before this read; one more transaction there waits behind all of them.
    await first.store.transaction(tenantIdOf('a', 'token-a'), () => undefined);
    const retry = await call(second, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    expect([retry.status, (await retry.json()).code]).toEqual([409, 'idempotency_request_in_progress']);
    release();
    expect((await advancing).status).toBe(200);
    const replay = await call(second, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
  });
});
