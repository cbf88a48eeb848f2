// The seams other modules plug into: control routes mounted under /_sandbox on the runtime, an interceptor that
// answers before an operation runs (fault injection), and what the request check is told about each operation.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { RequestCheck, SandboxRuntime } from '../../packages/sandbox/src/index.js';
import { call, clientA, newSandbox, paymentBody } from './fixtures.js';

/** A control route as the control API would write one: authenticate with the tenant's credentials, act on the runtime. */
const clockRoutes = (runtime: SandboxRuntime) =>
  new Hono().post('/clock/advance', async (c) => {
    const auth = await runtime.authenticate(c.req.raw.headers);
    if (!auth.ok) return c.json({ code: 'unauthorized' }, 401);
    const { seconds } = await c.req.json<{ seconds: number }>();
    const { transitions } = await runtime.advance(auth.tenant, seconds);
    return c.json({ changes: transitions.length });
  });

describe('seams', () => {
  it('mounts control routes under /_sandbox, with the tenant found from either variant’s credentials', async () => {
    const sandbox = newSandbox({ control: clockRoutes });
    const client = clientA(sandbox);
    const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
    const advanced = await call(
      sandbox,
      'POST',
      '/_sandbox/clock/advance',
      { authorization: 'Bearer token-a' },
      { seconds: 60 },
    );
    expect(await advanced.json()).toEqual({ changes: 2 });
    expect((await client.GET('/payments/{id}', { params: { path: { id: payment.id } } })).data?.data.status).toBe(
      'succeeded',
    );
    expect((await call(sandbox, 'POST', '/_sandbox/clock/advance', {}, { seconds: 1 })).status).toBe(401);
  });

  it('answers 404 under /_sandbox where the control routes have no operation', async () => {
    const response = await call(newSandbox(), 'GET', '/_sandbox/nothing', { authorization: 'Bearer t' });
    expect([response.status, (await response.json()).code]).toEqual([404, 'not_found']);
  });

  it('lets an interceptor answer before the operation runs, without taking its Idempotency-Key', async () => {
    let faults = 1;
    const sandbox = newSandbox({
      intercept: ({ operation }) =>
        operation.operationId === 'createPayment' && faults-- > 0
          ? new Response(JSON.stringify({ code: 'rate_limited' }), {
              status: 429,
              headers: { 'retry-after': '1', 'content-type': 'application/problem+json' },
            })
          : undefined,
    });
    const headers = { authorization: 'Bearer t', 'idempotency-key': 'k-1' };
    const limited = await call(sandbox, 'POST', '/payments', headers, paymentBody());
    const retried = await call(sandbox, 'POST', '/payments', headers, paymentBody());
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '1']);
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  it('tells the request check the operation as the spec names it, its path parameters and its body', async () => {
    const checks: RequestCheck[] = [];
    const sandbox = newSandbox({ validate: { request: (check) => void checks.push(check) } });
    await call(sandbox, 'POST', '/merchant/v1/payments/pay_1/refund', {
      'x-public-key': 'p',
      'x-secret-key': 's',
      'idempotency-key': 'k',
    });
    await call(
      sandbox,
      'POST',
      '/payments/pay_2/confirm',
      { authorization: 'Bearer t', 'idempotency-key': 'k' },
      { reference: 'r' },
    );
    expect(checks.map((c) => [c.operation, c.pathParams, c.body])).toEqual([
      [
        {
          variant: 'B',
          operationId: 'refundPayment',
          method: 'POST',
          path: '/merchant/v1/payments/{paymentId}/refund',
        },
        { paymentId: 'pay_1' },
        undefined,
      ],
      [
        { variant: 'A', operationId: 'confirmPayment', method: 'POST', path: '/payments/{id}/confirm' },
        { id: 'pay_2' },
        { reference: 'r' },
      ],
    ]);
  });
});
