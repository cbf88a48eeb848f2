// Per-tenant quotas of hosted mode (issue 24): the rate limit's token bucket (one per merchant, issue 40), through sandbox.fetch on an injected
// wall clock, so that no test waits for a second to pass.
import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../packages/sandbox/src/http/rate-limit.js';
import { call, newSandbox, paymentBody } from './fixtures.js';

const A = { authorization: 'Bearer token-a' };
const OTHER = { authorization: 'Bearer token-other' };

/** A sandbox limited to `rateLimit` requests per second, on a wall clock the test moves. */
function limitedSandbox(rateLimit: number) {
  let wall = Date.UTC(2026, 0, 1);
  const sandbox = newSandbox({ rateLimit, now: () => wall });
  return { sandbox, move: (ms: number) => void (wall += ms) };
}

describe('rateLimit', () => {
  it('answers the 3rd request in a second with rateLimit 2 with 429 rate_limited and Retry-After: 1, then lets one through a second later', async () => {
    const { sandbox, move } = limitedSandbox(2);
    expect((await call(sandbox, 'GET', '/payments', A)).status).toBe(200);
    expect((await call(sandbox, 'GET', '/payments', A)).status).toBe(200);
    const limited = await call(sandbox, 'GET', '/payments', A);
    const problem = await limited.json();
    expect([
      limited.status,
      limited.headers.get('retry-after'),
      limited.headers.get('content-type'),
      problem.code,
      problem.title,
    ]).toEqual([429, '1', 'application/problem+json', 'rate_limited', 'Too many requests']);
    expect(problem.detail).toContain('rate limit of 2 requests per second');
    expect(limited.headers.get('ratelimit-policy')).toBe('"default";q=2;w=1');
    move(1000);
    expect((await call(sandbox, 'GET', '/payments', A)).status).toBe(200);
  });

  it('keeps a bucket per tenant: another tenant is not affected', async () => {
    const { sandbox } = limitedSandbox(1);
    expect((await call(sandbox, 'GET', '/payments', A)).status).toBe(200);
    expect((await call(sandbox, 'GET', '/payments', A)).status).toBe(429);
    expect((await call(sandbox, 'GET', '/payments', OTHER)).status).toBe(200);
  });

  it("counts and refuses control lists and views too, in the merchant's one bucket", async () => {
    const { sandbox, move } = limitedSandbox(3);
    expect((await call(sandbox, 'GET', '/_sandbox/events', A)).status).toBe(200);
    expect((await call(sandbox, 'GET', '/_sandbox/deliveries', A)).status).toBe(200);
    expect((await call(sandbox, 'GET', '/_sandbox/faults', A)).status).toBe(200);
    for (const path of ['/_sandbox/webhook-endpoints', '/_sandbox/tenants', '/_sandbox/clock', '/payments']) {
      const refused = await call(sandbox, 'GET', path, A);
      const problem = await refused.json();
      expect([refused.status, refused.headers.get('retry-after'), problem.code], path).toEqual([
        429,
        '1',
        'rate_limited',
      ]);
      expect(refused.headers.get('ratelimit-policy')).toBe('"default";q=3;w=1');
    }
    move(1000);
    expect((await call(sandbox, 'GET', '/_sandbox/events', A)).status).toBe(200);
  });

  it('keeps one bucket per merchant: a tenant and its test tenants share it', async () => {
    const { sandbox, move } = limitedSandbox(3);
    const made = await call(sandbox, 'POST', '/_sandbox/tenants', A);
    expect(made.status).toBe(201);
    const test = { authorization: `Bearer ${(await made.json()).data.access_token as string}` };
    expect((await call(sandbox, 'GET', '/payments', test)).status).toBe(200);
    expect((await call(sandbox, 'GET', '/payments', A)).status).toBe(200);
    const refused = await call(sandbox, 'GET', '/payments', test);
    expect(refused.status).toBe(429);
    expect((await refused.json()).detail).toContain('This merchant (a tenant and its test tenants)');
    expect((await call(sandbox, 'GET', '/payments', A)).status).toBe(429);
    expect((await call(sandbox, 'GET', '/payments', OTHER)).status).toBe(200);
    move(1000);
    expect((await call(sandbox, 'GET', '/payments', test)).status).toBe(200);
  });

  it('is off by default', async () => {
    const sandbox = newSandbox();
    for (let i = 0; i < 20; i += 1) expect((await call(sandbox, 'GET', '/payments', A)).status).toBe(200);
  });

  it('refuses a rate that is not a positive number', () => {
    expect(() => newSandbox({ rateLimit: 0 })).toThrow(/rateLimit must be a positive number/);
  });

  it('drops idle buckets, so the map stays bounded', () => {
    let wall = 0;
    const limiter = createRateLimiter(5, () => wall);
    for (let i = 0; i < 10_000; i += 1) limiter.take(`t${i}`, true);
    wall += 1000;
    limiter.take('late', true);
    expect(limiter.size).toBe(1);
  });
});

describe('quotas', () => {
  it('answers the create past quotas.objects with 422 quota_exceeded naming the limit, per kind and per tenant', async () => {
    const sandbox = newSandbox({ quotas: { objects: 3 } });
    for (let i = 1; i <= 3; i += 1)
      expect(
        (await call(sandbox, 'POST', '/payments', { ...A, 'idempotency-key': `pay-${i}` }, paymentBody())).status,
      ).toBe(200);
    const refused = await call(sandbox, 'POST', '/payments', { ...A, 'idempotency-key': 'pay-4' }, paymentBody());
    const problem = await refused.json();
    expect([refused.status, problem.code, problem.title]).toEqual([422, 'quota_exceeded', 'Quota exceeded']);
    expect(problem.detail).toContain('quota of objects of a kind (3)');
    expect((await call(sandbox, 'GET', '/payments', A)).status).toBe(200);
    expect(
      (await call(sandbox, 'POST', '/payments', { ...OTHER, 'idempotency-key': 'pay-4' }, paymentBody())).status,
    ).toBe(200);
  });

  it('answers the endpoint past quotas.webhookEndpoints with 422 limit_reached naming the limit', async () => {
    const sandbox = newSandbox({ quotas: { webhookEndpoints: 3 } });
    for (let i = 1; i <= 3; i += 1)
      expect(
        (await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', A, { url: `https://merchant.test/hooks/${i}` }))
          .status,
      ).toBe(201);
    const refused = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', A, {
      url: 'https://merchant.test/hooks/4',
    });
    const problem = await refused.json();
    expect([refused.status, problem.code]).toEqual([422, 'limit_reached']);
    expect(problem.detail).toContain('quota of webhook endpoints (3)');
  });

  it('refuses a quota that is not a whole number in range', () => {
    expect(() => newSandbox({ quotas: { objects: 0 } })).toThrow(/quotas.objects must be a whole number/);
    expect(() => newSandbox({ quotas: { webhookEndpoints: 21 } })).toThrow(
      /quotas.webhookEndpoints must be a whole number from 1 to 20/,
    );
  });
});
