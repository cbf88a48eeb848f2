// Fault injection through the control API: the next requests to an operation answer 429 with Retry-After (which the
// package's clients wait), 500, or nothing until the client times out; a faulted request changes nothing.
import { describe, expect, it } from 'vitest';
import { createVariantAClient, TimeoutError } from '../../packages/contract/src/index.js';
import { controlA, controlB, controlSandbox } from './control-fixtures.js';
import { call, clientA, clientB, ORIGIN, paymentBody } from './fixtures.js';

const A = { authorization: 'Bearer token-a' };

/** A Variant A client that retries, recording each wait instead of sleeping it. */
function retryingClient(sandbox: ReturnType<typeof controlSandbox>, timeoutMs = 30_000) {
  const waits: number[] = [];
  const statuses: (number | undefined)[] = [];
  const client = createVariantAClient({
    baseUrl: ORIGIN,
    accessToken: 'token-a',
    fetch: sandbox.fetch,
    timeoutMs,
    retry: { attempts: 3, sleep: async (ms) => void waits.push(ms) },
    onRetry: (info) => void statuses.push(info.status),
  });
  return { client, waits, statuses };
}

describe('createFault, listFaults, deleteFaults', () => {
  it('creates a fault (201), lists it with what remains, and removes it once used up', async () => {
    const sandbox = controlSandbox();
    const control = controlA(sandbox);
    const created = await control.POST('/_sandbox/faults', {
      body: { operation_id: 'createPayment', kind: 'rate_limit', count: 2, retry_after: 3 },
    });
    expect([created.response.status, created.data?.data]).toEqual([
      201,
      {
        id: expect.stringMatching(/^flt_/),
        operation_id: 'createPayment',
        kind: 'rate_limit',
        count: 2,
        remaining: 2,
        retry_after: 3,
        created_at: '2026-01-01T00:00:00Z',
      },
    ]);
    const headers = { ...A, 'idempotency-key': 'pay-1' };
    const limited = await call(sandbox, 'POST', '/payments', headers, paymentBody());
    const problem = await limited.json();
    expect([limited.status, limited.headers.get('retry-after'), problem.code, problem.title]).toEqual([
      429,
      '3',
      'rate_limited',
      'Too many requests',
    ]);
    expect((await control.GET('/_sandbox/faults')).data?.data.map((f) => f.remaining)).toEqual([1]);
    expect((await call(sandbox, 'POST', '/payments', headers, paymentBody())).status).toBe(429);
    expect((await control.GET('/_sandbox/faults')).data?.data).toEqual([]);
    expect((await call(sandbox, 'POST', '/payments', headers, paymentBody())).status).toBe(200);
  });

  it('applies faults on one operation oldest first, leaves other operations and tenants alone, and deletes them all', async () => {
    const sandbox = controlSandbox();
    const control = controlA(sandbox);
    await control.POST('/_sandbox/faults', { body: { operation_id: 'createPayment', kind: 'server_error', count: 1 } });
    await control.POST('/_sandbox/faults', { body: { operation_id: 'createPayment', kind: 'rate_limit', count: 1 } });
    await control.POST('/_sandbox/faults', {
      body: { operation_id: 'retrieveBalance', kind: 'server_error', count: 5 },
    });
    expect(
      (await control.GET('/_sandbox/faults')).data?.data.map((f) => [f.operation_id, f.kind, f.retry_after]),
    ).toEqual([
      ['createPayment', 'server_error', null],
      ['createPayment', 'rate_limit', 1],
      ['retrieveBalance', 'server_error', null],
    ]);
    const statuses = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await clientA(sandbox).POST('/payments', { body: paymentBody() })).response.status);
    expect(statuses).toEqual([500, 429, 200]);
    expect((await clientA(sandbox).GET('/payments')).response.status).toBe(200);
    expect((await clientA(sandbox, 'token-other').GET('/balance')).response.status).toBe(200);
    expect((await clientB(sandbox).GET('/merchant/v1/balance')).response.status).toBe(200);

    const deleted = await control.DELETE('/_sandbox/faults');
    expect([deleted.response.status, await deleted.response.text()]).toEqual([204, '']);
    expect((await control.GET('/_sandbox/faults')).data?.data).toEqual([]);
    expect((await clientA(sandbox).GET('/balance')).response.status).toBe(200);
  });

  it('applies to the tenant in whichever variant it uses', async () => {
    const sandbox = controlSandbox();
    await controlB(sandbox).POST('/_sandbox/faults', {
      body: { operation_id: 'retrieveBalance', kind: 'server_error', count: 1 },
    });
    const failed = await clientB(sandbox).GET('/merchant/v1/balance');
    expect([failed.response.status, failed.error?.code]).toEqual([500, 'internal_error']);
    expect((await clientB(sandbox).GET('/merchant/v1/balance')).response.status).toBe(200);
  });

  it.each([
    [
      'retry_after on a server_error',
      { operation_id: 'createPayment', kind: 'server_error', retry_after: 2 },
      '/retry_after',
    ],
    ['count 0', { operation_id: 'createPayment', kind: 'timeout', count: 0 }, '/count'],
    ['count 101', { operation_id: 'createPayment', kind: 'timeout', count: 101 }, '/count'],
    ['retry_after 3601', { operation_id: 'createPayment', kind: 'rate_limit', retry_after: 3601 }, '/retry_after'],
    ['an operation of the control API', { operation_id: 'advanceClock', kind: 'timeout' }, '/operation_id'],
    ['an unknown kind', { operation_id: 'createPayment', kind: 'slow' }, '/kind'],
    ['no kind', { operation_id: 'createPayment' }, '/kind'],
  ])('refuses %s with 422 validation_failed', async (_label, body, pointer) => {
    const response = await call(controlSandbox(), 'POST', '/_sandbox/faults', A, body);
    const problem = await response.json();
    expect([response.status, problem.code, problem.errors.map((e: { pointer: string }) => e.pointer)]).toEqual([
      422,
      'validation_failed',
      [pointer],
    ]);
  });

  it('holds 100 faults at most: the 101st gets 422 limit_reached', async () => {
    const sandbox = controlSandbox();
    const control = controlA(sandbox);
    for (let i = 0; i < 100; i += 1)
      await control.POST('/_sandbox/faults', { body: { operation_id: 'listAppeals', kind: 'server_error', count: 1 } });
    const refused = await control.POST('/_sandbox/faults', {
      body: { operation_id: 'listAppeals', kind: 'server_error', count: 1 },
    });
    expect([refused.response.status, refused.error?.code]).toEqual([422, 'limit_reached']);
    expect((await control.GET('/_sandbox/faults')).data?.data).toHaveLength(100);
  });
});

describe('faulted requests', () => {
  it('are retried by the client after the Retry-After it was told, with one Idempotency-Key, creating one payment', async () => {
    const sandbox = controlSandbox();
    await controlA(sandbox).POST('/_sandbox/faults', {
      body: { operation_id: 'createPayment', kind: 'rate_limit', count: 2, retry_after: 2 },
    });
    const { client, waits, statuses } = retryingClient(sandbox);
    const created = await client.POST('/payments', { body: paymentBody() });
    expect([created.response.status, statuses, waits]).toEqual([200, [429, 429], [2000, 2000]]);
    expect((await clientA(sandbox).GET('/payments')).data?.pagination.total).toBe(1);
  });

  it('change nothing and record no Idempotency-Key: a retry after a 500 runs the operation once', async () => {
    const sandbox = controlSandbox();
    await controlA(sandbox).POST('/_sandbox/faults', {
      body: { operation_id: 'createPayment', kind: 'server_error', count: 1 },
    });
    const headers = { ...A, 'idempotency-key': 'pay-500' };
    const failed = await call(sandbox, 'POST', '/payments', headers, paymentBody());
    expect([failed.status, (await failed.json()).code]).toEqual([500, 'internal_error']);
    expect((await clientA(sandbox).GET('/payments')).data?.pagination.total).toBe(0);
    const retried = await call(sandbox, 'POST', '/payments', headers, paymentBody());
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect((await clientA(sandbox).GET('/payments')).data?.pagination.total).toBe(1);
  });

  it('get no answer under a timeout fault until the client gives up; the retry is served', async () => {
    const sandbox = controlSandbox();
    const payment = (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data;
    await controlA(sandbox).POST('/_sandbox/faults', {
      body: { operation_id: 'retrievePayment', kind: 'timeout', count: 1 },
    });
    const once = createVariantAClient({
      baseUrl: ORIGIN,
      accessToken: 'token-a',
      fetch: sandbox.fetch,
      timeoutMs: 100,
      retry: false,
    });
    // Note: a TimeoutError shows the client gave up first; the sandbox's own hold would have ended in a 500.
    await expect(once.GET('/payments/{id}', { params: { path: { id: payment.id } } })).rejects.toBeInstanceOf(
      TimeoutError,
    );
    expect((await controlA(sandbox).GET('/_sandbox/faults')).data?.data).toEqual([]);

    await controlA(sandbox).POST('/_sandbox/faults', {
      body: { operation_id: 'retrievePayment', kind: 'timeout', count: 1 },
    });
    const { client, statuses } = retryingClient(sandbox, 100);
    const retrieved = await client.GET('/payments/{id}', { params: { path: { id: payment.id } } });
    expect([retrieved.response.status, retrieved.data?.data.id, statuses]).toEqual([200, payment.id, [undefined]]);
  });

  it('get no answer over HTTP either, until the client gives up and closes the connection', async () => {
    const sandbox = controlSandbox();
    await controlA(sandbox).POST('/_sandbox/faults', {
      body: { operation_id: 'retrieveBalance', kind: 'timeout', count: 1 },
    });
    const { url } = await sandbox.listen({ port: 0 });
    const overHttp = createVariantAClient({ baseUrl: url, accessToken: 'token-a', timeoutMs: 150, retry: false });
    await expect(overHttp.GET('/balance')).rejects.toBeInstanceOf(TimeoutError);
    // Note: the next call gets the default time-out, so that a loaded machine does not turn its answer into another.
    const patient = createVariantAClient({ baseUrl: url, accessToken: 'token-a', retry: false });
    expect((await patient.GET('/balance')).response.status).toBe(200);
    await sandbox.close();
  });

  it('are held no longer than faultHoldMs when the client never gives up, then answered 500', async () => {
    const sandbox = controlSandbox({ faultHoldMs: 50 });
    await controlA(sandbox).POST('/_sandbox/faults', {
      body: { operation_id: 'retrieveBalance', kind: 'timeout', count: 1 },
    });
    const started = performance.now();
    const held = await call(sandbox, 'GET', '/balance', A);
    const problem = await held.json();
    expect([held.status, problem.code, problem.detail]).toEqual([
      500,
      'internal_error',
      expect.stringContaining('50 ms'),
    ]);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('are let go by close()', async () => {
    const sandbox = controlSandbox();
    await controlA(sandbox).POST('/_sandbox/faults', {
      body: { operation_id: 'retrieveBalance', kind: 'timeout', count: 1 },
    });
    const held = call(sandbox, 'GET', '/balance', A);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sandbox.close();
    expect((await held).status).toBe(500);
  });
});
