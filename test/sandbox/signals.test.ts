// The operator's signals through sandbox.fetch: /healthz, /readyz and /metrics outside the contract's operations, the
// per-sandbox prom-client registry, and the pino request log, captured in memory, with no credential in it.
import { describe, expect, it, vi } from 'vitest';
import { createSandbox, createSandboxLogger, type TenantStore } from '../../packages/sandbox/src/index.js';
import { createMemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import { READY_CACHE_MS } from '../../packages/sandbox/src/http/signals.js';

const ORIGIN = 'http://sandbox.test';
const BEARER = 'tok_signals_secret_bearer_value';
const SECRET_KEY = 'sk_signals_secret_key_value';
const PUBLIC_KEY = 'pk_signals_public_key_value';
const createBody = JSON.stringify({ amount: '1.00', currency: 'EUR', requisite: { type: 'card' } });

/** A sandbox with a logger writing into `lines`. */
function logged() {
  const lines: string[] = [];
  const sandbox = createSandbox({ logger: createSandboxLogger({ write: (line: string) => void lines.push(line) }) });
  return { sandbox, lines, entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

const get = (sandbox: { fetch(r: Request): Promise<Response> }, path: string) =>
  sandbox.fetch(new Request(`${ORIGIN}${path}`));

/** The value of one sample line of the Prometheus text, or undefined. */
const sample = (text: string, series: string) =>
  text
    .split('\n')
    .find((line) => line.startsWith(`${series} `))
    ?.split(' ')[1];

describe('the operator signals', () => {
  it('answers GET /healthz with 200 {"status":"ok"} and /readyz with 200 on the memory store', async () => {
    const sandbox = createSandbox();
    const health = await get(sandbox, '/healthz');
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    const ready = await get(sandbox, '/readyz');
    expect(ready.status).toBe(200);
    await sandbox.close();
  });

  it('answers /readyz with a 503 problem naming why when the store does not answer', async () => {
    const sandbox = createSandbox({
      store: (settings): TenantStore => ({
        ...createMemoryStore(settings),
        ready: () => Promise.reject(new Error('the database did not accept a connection (ECONNREFUSED)')),
      }),
    });
    const ready = await get(sandbox, '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.headers.get('content-type')).toBe('application/problem+json');
    expect(((await ready.json()) as { detail: string }).detail).toContain('ECONNREFUSED');
    await sandbox.close();
  });

  it('answers /readyz from a store check at most a second old: a burst of probes costs the store one check', async () => {
    let checks = 0;
    let healthy = true;
    const sandbox = createSandbox({
      store: (settings): TenantStore => ({
        ...createMemoryStore(settings),
        ready: () => {
          checks += 1;
          return healthy ? Promise.resolve() : Promise.reject(new Error('the database is gone'));
        },
      }),
    });
    const statuses = await Promise.all(Array.from({ length: 5 }, () => get(sandbox, '/readyz').then((r) => r.status)));
    expect([statuses, checks]).toEqual([[200, 200, 200, 200, 200], 1]);
    healthy = false;
    // Note: once the check is a second old, the next probe checks again and sees the change.
    await new Promise((resolve) => setTimeout(resolve, READY_CACHE_MS + 50));
    expect((await get(sandbox, '/readyz')).status).toBe(503);
    expect(checks).toBe(2);
    await sandbox.close();
  });

  it('leaves other methods on the signal paths to the contract: a POST /healthz is the catch-all 404 problem', async () => {
    const sandbox = createSandbox();
    const response = await sandbox.fetch(new Request(`${ORIGIN}/healthz`, { method: 'POST' }));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    await sandbox.close();
  });

  it('counts requests by operation and status in its own registry: one create and one 404, and another sandbox counts none', async () => {
    const sandbox = createSandbox();
    const other = createSandbox();
    const created = await sandbox.fetch(
      new Request(`${ORIGIN}/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${BEARER}`, 'content-type': 'application/json', 'idempotency-key': 'k1' },
        body: createBody,
      }),
    );
    expect(created.ok).toBe(true);
    expect((await get(sandbox, '/nowhere?token=abc')).status).toBe(404);
    const metrics = await get(sandbox, '/metrics');
    expect(metrics.headers.get('content-type')).toContain('text/plain');
    const text = await metrics.text();
    expect(sample(text, `sandbox_requests_total{operation="createPayment",status="${created.status}"}`)).toBe('1');
    expect(sample(text, 'sandbox_requests_total{operation="none",status="404"}')).toBe('1');
    expect(sample(text, 'sandbox_request_duration_seconds_count{operation="createPayment"}')).toBe('1');
    expect(text).toContain('# TYPE sandbox_deliveries_total counter');
    expect(text).toContain('# TYPE sandbox_due_work_lag_seconds histogram');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).not.toContain(BEARER);
    expect(text).not.toContain('token=abc');
    expect(await (await get(other, '/metrics')).text()).not.toContain('sandbox_requests_total{');
    await Promise.all([sandbox.close(), other.close()]);
  });

  it('logs one JSON line per request with the request id a problem carries, and no credential anywhere', async () => {
    const { sandbox, lines, entries } = logged();
    const created = await sandbox.fetch(
      new Request(`${ORIGIN}/payments?access_token=${BEARER}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${BEARER}`,
          'content-type': 'application/json',
          'idempotency-key': 'key-of-the-log-test',
        },
        body: createBody,
      }),
    );
    expect(created.ok).toBe(true);
    const refused = await sandbox.fetch(
      new Request(`${ORIGIN}/merchant/v1/payments/nope`, {
        headers: { 'x-public-key': PUBLIC_KEY, 'x-secret-key': SECRET_KEY },
      }),
    );
    const problem = (await refused.json()) as { request_id: string };
    const [first, second] = entries();
    expect(lines).toHaveLength(2);
    expect(first).toMatchObject({
      msg: 'request',
      method: 'POST',
      path: '/payments',
      operation: 'createPayment',
      status: created.status,
      tenant: sandbox.tenantId({ accessToken: BEARER }),
    });
    expect(first!.requestId).toMatch(/^req_/);
    expect(second).toMatchObject({
      requestId: problem.request_id,
      method: 'GET',
      path: '/merchant/v1/payments/nope',
      status: refused.status,
    });
    expect(typeof second!.durationMs).toBe('number');
    const all = lines.join('');
    for (const secret of [BEARER, SECRET_KEY, 'key-of-the-log-test', 'access_token']) expect(all).not.toContain(secret);
    await sandbox.close();
  });

  it("keeps a load balancer's X-Request-Id in the log and the problem when it fits the contract's request_id, and replaces one that does not", async () => {
    const { sandbox, entries } = logged();
    const ask = (id: string) =>
      sandbox.fetch(
        new Request(`${ORIGIN}/merchant/v1/payments/nope`, {
          headers: { 'x-public-key': PUBLIC_KEY, 'x-secret-key': SECRET_KEY, 'x-request-id': id },
        }),
      );
    const kept = (await (await ask('lb-7f3a.9_c')).json()) as { request_id: string };
    const replaced = (await (await ask('not ok\u00e9'.repeat(3))).json()) as { request_id: string };
    const long = (await (await ask('a'.repeat(129))).json()) as { request_id: string };
    expect(kept.request_id).toBe('lb-7f3a.9_c');
    expect(replaced.request_id).toMatch(/^req_/);
    expect(long.request_id).toMatch(/^req_/);
    expect(entries().map((entry) => entry.requestId)).toEqual([kept.request_id, replaced.request_id, long.request_id]);
    await sandbox.close();
  });

  it('logs a failure of the sandbox itself as a JSON line of the same log when it has a logger', async () => {
    const lines: string[] = [];
    const sandbox = createSandbox({
      logger: createSandboxLogger({ write: (line: string) => void lines.push(line) }),
      intercept: () => {
        throw new Error('the interceptor broke');
      },
    });
    const answer = await sandbox.fetch(
      new Request(`${ORIGIN}/payments/pay_1`, { headers: { authorization: `Bearer ${BEARER}` } }),
    );
    expect(answer.status).toBe(500);
    const failure = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.msg === 'sandbox failure');
    expect(failure).toMatchObject({ level: 50, error: 'the interceptor broke' });
    await sandbox.close();
  });

  it('redacts the credentials headers should a caller log them with the sandbox logger', () => {
    const lines: string[] = [];
    const logger = createSandboxLogger({ write: (line: string) => void lines.push(line) });
    logger.info(
      {
        req: {
          headers: {
            authorization: `Bearer ${BEARER}`,
            'x-secret-key': SECRET_KEY,
            'x-public-key': PUBLIC_KEY,
            accept: 'application/json',
          },
        },
      },
      'headers',
    );
    expect(lines[0]).not.toContain(BEARER);
    expect(lines[0]).not.toContain(SECRET_KEY);
    expect(lines[0]).not.toContain(PUBLIC_KEY);
    expect(lines[0]).toContain('application/json');
  });

  it('logs nothing by default', async () => {
    const written = vi.spyOn(process.stdout, 'write');
    const errors = vi.spyOn(process.stderr, 'write');
    const sandbox = createSandbox();
    expect((await get(sandbox, '/payments')).status).toBe(401);
    await sandbox.close();
    expect(
      [...written.mock.calls, ...errors.mock.calls]
        .map(([chunk]) => String(chunk))
        .filter((chunk) => chunk.includes('"msg":"request"')),
    ).toEqual([]);
    written.mockRestore();
    errors.mockRestore();
  });
});
