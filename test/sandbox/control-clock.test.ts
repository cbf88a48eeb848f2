// The control API's clock (retrieveClock, advanceClock), resetTenant, and what every control call shares: either
// variant's credentials, the document's bounds (400, 422), and the optional Idempotency-Key (replay, 409, 422 reused).
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { IDEMPOTENCY_LEASE_MS } from '../../packages/sandbox/src/core/index.js';
import { ClockAdvanceError, createSandboxControlClient } from '../../packages/sandbox/src/index.js';
import { controlA, controlB, openControlSandbox } from './control-fixtures.js';
import { call, clientA, clientB, heldReceiver, HOOK_URL, moveWall, ORIGIN, paymentBody, receiver } from './fixtures.js';

const A = { authorization: 'Bearer token-a' };

describe('retrieveClock', () => {
  it('answers the tenant’s time and mode, for either variant’s credentials', async () => {
    const sandbox = await openControlSandbox();
    const a = await controlA(sandbox).GET('/_sandbox/clock');
    const b = await controlB(sandbox).GET('/_sandbox/clock');
    expect([a.response.status, a.data?.data]).toEqual([200, { now: '2026-01-01T00:00:00Z', mode: 'manual' }]);
    expect(b.data?.data).toEqual({ now: '2026-01-01T00:00:00Z', mode: 'manual' });
    const real = await controlA(await openControlSandbox({ clock: 'real' })).GET('/_sandbox/clock');
    expect(real.data?.data.mode).toBe('real');
  });

  it('answers 401 without credentials, and to a Variant B secret key other than the first one seen', async () => {
    const sandbox = await openControlSandbox();
    const none = await call(sandbox, 'GET', '/_sandbox/clock', {});
    const body = await none.json();
    expect([none.status, body.code, body.detail]).toEqual([
      401,
      'unauthorized',
      expect.stringContaining('either variant'),
    ]);
    await controlB(sandbox, 'pk_1', 'sk_1').GET('/_sandbox/clock');
    const wrong = await controlB(sandbox, 'pk_1', 'sk_2').GET('/_sandbox/clock');
    expect([wrong.response.status, wrong.error?.code]).toEqual([401, 'unauthorized']);
  });
});

describe('advanceClock', () => {
  it('runs what falls due and makes its deliveries before it answers, counting both', async () => {
    const hooks = receiver();
    const sandbox = await openControlSandbox({ webhookUrls: [HOOK_URL], fetch: hooks.fetch });
    const payment = (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data;
    const { data, response } = await controlA(sandbox).POST('/_sandbox/clock/advance', { body: { seconds: 60 } });
    expect(response.status).toBe(200);
    expect(data?.data).toEqual({
      now: '2026-01-01T00:01:00Z',
      mode: 'manual',
      advanced_by: 60,
      transitions: 2,
      delivery_attempts: 2,
    });
    // Note: read right after the answer, with no settled(): the attempts were made before it.
    expect(hooks.later.map((e) => [e.data.id, e.data.status])).toEqual([
      [payment.id, 'pending'],
      [payment.id, 'succeeded'],
    ]);
    const zero = await controlA(sandbox).POST('/_sandbox/clock/advance', { body: { seconds: 0 } });
    expect(zero.data?.data).toMatchObject({
      now: '2026-01-01T00:01:00Z',
      advanced_by: 0,
      transitions: 0,
      delivery_attempts: 0,
    });
  });

  it('moves only the calling tenant’s clock', async () => {
    const sandbox = await openControlSandbox();
    await controlA(sandbox).POST('/_sandbox/clock/advance', { body: { seconds: 3600 } });
    expect((await controlA(sandbox).GET('/_sandbox/clock')).data?.data.now).toBe('2026-01-01T01:00:00Z');
    expect((await controlA(sandbox, 'token-other').GET('/_sandbox/clock')).data?.data.now).toBe('2026-01-01T00:00:00Z');
  });

  it.each([
    [{ seconds: -1 }, ['/seconds']],
    [{ seconds: 31_536_001 }, ['/seconds']],
    [{ seconds: 1.5 }, ['/seconds']],
    [{ seconds: '60' }, ['/seconds']],
    [{}, ['/seconds']],
    [{ seconds: 1, minutes: 1 }, ['/minutes']],
    [[60], ['']],
  ])('refuses %j with 422 validation_failed naming %j', async (body, pointers) => {
    const response = await call(await openControlSandbox(), 'POST', '/_sandbox/clock/advance', A, body);
    const problem = await response.json();
    expect([response.status, problem.code, problem.errors.map((e: { pointer: string }) => e.pointer)]).toEqual([
      422,
      'validation_failed',
      pointers,
    ]);
  });

  it('bounds a problem that quotes the request: 100 field errors at most, each detail bounded', async () => {
    // Note: 151 violations: 150 unknown properties and the missing seconds.
    const body = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`${'k'.repeat(1200)}${i}`, i]));
    const response = await call(await openControlSandbox(), 'POST', '/_sandbox/clock/advance', A, body);
    const problem = await response.json();
    expect([response.status, problem.errors.length, problem.errors.at(-1).detail]).toEqual([
      422,
      100,
      'And 52 more violations, not listed.',
    ]);
    expect(Math.max(...problem.errors.map((e: { detail: string }) => e.detail.length))).toBeLessThanOrEqual(1024);
  });

  it('takes 365 days at most, and refuses a body that is not JSON, or not sent as JSON, with 400', async () => {
    const sandbox = await openControlSandbox();
    expect((await call(sandbox, 'POST', '/_sandbox/clock/advance', A, { seconds: 31_536_000 })).status).toBe(200);
    const malformed = await call(sandbox, 'POST', '/_sandbox/clock/advance', A, '{"seconds":');
    expect([malformed.status, (await malformed.json()).code]).toEqual([400, 'bad_request']);
    const typed = await call(
      sandbox,
      'POST',
      '/_sandbox/clock/advance',
      { ...A, 'content-type': 'text/plain' },
      { seconds: 1 },
    );
    const problem = await typed.json();
    expect([typed.status, problem.code, problem.errors[0].pointer]).toEqual([400, 'bad_request', '/Content-Type']);
    const missing = await call(sandbox, 'POST', '/_sandbox/clock/advance', A);
    expect([missing.status, (await missing.json()).errors]).toEqual([
      422,
      [{ pointer: '', detail: 'A request body is required.' }],
    ]);
  });
});

describe('sandbox.advance', () => {
  it.each([9e12, 31_536_001, -1, Number.NaN, Infinity])(
    'refuses %d as the control API does, with ClockAdvanceError, and the clock still works',
    async (seconds) => {
      const sandbox = await openControlSandbox();
      const tenant = { accessToken: 'token-a' };
      const refused = await sandbox.advance(tenant, seconds).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ClockAdvanceError);
      expect(refused).toMatchObject({
        name: 'ClockAdvanceError',
        seconds,
        message: expect.stringContaining(
          `by 0 to 31536000 seconds (365 days) at a time, as POST /_sandbox/clock/advance does; got ${seconds}. The clock did not move`,
        ),
      });
      expect((await controlA(sandbox).GET('/_sandbox/clock')).data?.data.now).toBe('2026-01-01T00:00:00Z');
      await sandbox.advance(tenant, 31_536_000);
      const { data, response } = await controlA(sandbox).GET('/_sandbox/clock');
      expect([response.status, data?.data.now]).toEqual([200, '2027-01-01T00:00:00Z']);
    },
  );
});

describe('the optional Idempotency-Key', () => {
  it('replays the first answer to the same key and body, and moves the clock once', async () => {
    const sandbox = await openControlSandbox();
    const headers = { ...A, 'idempotency-key': 'adv-1' };
    const first = await call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    const again = await call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    expect([first.headers.get('idempotent-replayed'), again.headers.get('idempotent-replayed')]).toEqual([
      null,
      'true',
    ]);
    expect(await again.json()).toEqual(await first.json());
    expect((await controlA(sandbox).GET('/_sandbox/clock')).data?.data.now).toBe('2026-01-01T00:01:00Z');
  });

  it('keeps the key of an advance longer than its own retention', async () => {
    const sandbox = await openControlSandbox();
    const headers = { ...A, 'idempotency-key': 'adv-long' };
    await call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 3 * 86_400 });
    const again = await call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 3 * 86_400 });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await controlA(sandbox).GET('/_sandbox/clock')).data?.data.now).toBe('2026-01-04T00:00:00Z');
  });

  it('keeps the key of an advance still running past its own retention: a retry is 409, and after the answer replays', async () => {
    const late = await heldPastADay();
    const sandbox = late.sandbox;
    await clientA(sandbox).POST('/payments', { body: paymentBody() });
    const headers = { ...A, 'idempotency-key': 'adv-running' };
    const first = call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 3 * 86_400 });
    await late.holding;
    const retry = call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 3 * 86_400 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    late.release();
    const [answered, retried] = await Promise.all([first, retry]);
    expect([retried.status, (await retried.json()).code]).toEqual([409, 'idempotency_request_in_progress']);
    const replay = await call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 3 * 86_400 });
    expect([answered.status, replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect(await replay.json()).toEqual(await answered.json());
    expect((await controlA(sandbox).GET('/_sandbox/clock')).data?.data.now).toBe('2026-01-04T00:00:00Z');
  });

  it('lets the control client retry a timed-out advance with its key: the clock moves once', async () => {
    const late = await heldPastADay();
    await clientA(late.sandbox).POST('/payments', { body: paymentBody() });
    const handled: Promise<Response>[] = [];
    const seen: (number | string)[] = [];
    // Note: each request runs to its end in the sandbox whatever the client does, as over HTTP; the client's time-out
    // of the first is let through only once the advance holds past a day, so the retry finds the clock there.
    const fetch = async (request: Request) => {
      const copy = new Request(request.url, {
        method: request.method,
        headers: request.headers,
        body: await request.text(),
      });
      const inner = late.sandbox.fetch(copy);
      const n = handled.push(inner);
      const timedOut = new Promise<never>((_, reject) =>
        request.signal.addEventListener('abort', () => void late.holding.then(() => reject(request.signal.reason)), {
          once: true,
        }),
      );
      const settled = Promise.race([inner, timedOut]);
      settled
        .then(
          (r) => seen.push(r.status),
          () => seen.push('timeout'),
        )
        .finally(() => n === 2 && late.release());
      return settled;
    };
    let waits = 0;
    const control = createSandboxControlClient({
      baseUrl: ORIGIN,
      accessToken: 'token-a',
      fetch,
      timeoutMs: 200,
      // Note: the second wait lasts until the first request has been answered, so the third attempt finds its answer.
      retry: { attempts: 3, jitter: false, sleep: async () => void (waits++ > 0 && (await handled[0])) },
    });
    const { data, response } = await control.POST('/_sandbox/clock/advance', { body: { seconds: 3 * 86_400 } });
    await Promise.allSettled(handled);
    // Note: the retry is 409 unless a loaded machine let its own time-out pass first; either way the third replays.
    expect([seen.length, seen[0], seen[2]]).toEqual([3, 'timeout', 200]);
    expect([response.headers.get('idempotent-replayed'), data?.data.now, data?.data.advanced_by]).toEqual([
      'true',
      '2026-01-04T00:00:00Z',
      259_200,
    ]);
    expect((await controlA(late.sandbox).GET('/_sandbox/clock')).data?.data.now).toBe('2026-01-04T00:00:00Z');
  });

  it('answers 422 idempotency_key_reused to another body, and runs without a key every time', async () => {
    const sandbox = await openControlSandbox();
    const headers = { ...A, 'idempotency-key': 'adv-2' };
    await call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    const other = await call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 61 });
    expect([other.status, (await other.json()).code]).toEqual([422, 'idempotency_key_reused']);
    await call(sandbox, 'POST', '/_sandbox/clock/advance', A, { seconds: 60 });
    await call(sandbox, 'POST', '/_sandbox/clock/advance', A, { seconds: 60 });
    expect((await controlA(sandbox).GET('/_sandbox/clock')).data?.data.now).toBe('2026-01-01T00:03:00Z');
  });

  it('answers 409 while the first request with the key is still running', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const fetch = async () => {
      await held;
      return new Response(null, { status: 204 });
    };
    const sandbox = await openControlSandbox({ webhookUrls: [HOOK_URL], fetch });
    await clientA(sandbox).POST('/payments', { body: paymentBody() });
    const headers = { ...A, 'idempotency-key': 'adv-3' };
    const first = call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    expect([second.status, (await second.json()).code]).toEqual([409, 'idempotency_request_in_progress']);
    release();
    expect((await first).status).toBe(200);
  });

  it('renews the key of an advance while it runs: a retry long past the lease, on the wall clock, is still 409', async () => {
    // Note: the renewal timer and the wall clock move together, as they do in a live process.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    onTestFinished(() => void vi.useRealTimers());
    let wall = Date.parse('2026-01-01T00:00:00Z');
    const { fetch, holding, release } = heldReceiver();
    const sandbox = await openControlSandbox({ webhookUrls: [HOOK_URL], fetch, now: () => wall });
    await clientA(sandbox).POST('/payments', { body: paymentBody() });
    const headers = { ...A, 'idempotency-key': 'adv-renewed' };
    const first = call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    await holding;
    await moveWall((ms) => (wall += ms), 3 * IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_LEASE_MS / 10);
    const retry = await call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    expect([retry.status, (await retry.json()).code]).toEqual([409, 'idempotency_request_in_progress']);
    release();
    const answered = await first;
    const replay = await call(sandbox, 'POST', '/_sandbox/clock/advance', headers, { seconds: 60 });
    expect([answered.status, replay.status, replay.headers.get('idempotent-replayed')]).toEqual([200, 200, 'true']);
    expect((await controlA(sandbox).GET('/_sandbox/clock')).data?.data.now).toBe('2026-01-01T00:01:00Z');
  });

  it('is read only where the document declares it, and a body only where one is taken', async () => {
    const sandbox = await openControlSandbox();
    expect((await call(sandbox, 'GET', '/_sandbox/clock', { ...A, 'idempotency-key': 'not a key' })).status).toBe(200);
    const reset = await call(sandbox, 'POST', '/_sandbox/reset', A, { everything: true });
    const problem = await reset.json();
    expect([reset.status, problem.code, problem.detail]).toEqual([
      400,
      'bad_request',
      'This operation takes no request body.',
    ]);
  });

  it('refuses a malformed key with 422 at /Idempotency-Key, and scopes keys to the tenant', async () => {
    const sandbox = await openControlSandbox();
    const bad = await call(
      sandbox,
      'POST',
      '/_sandbox/clock/advance',
      { ...A, 'idempotency-key': 'no spaces' },
      { seconds: 1 },
    );
    expect([bad.status, (await bad.json()).errors[0].pointer]).toEqual([422, '/Idempotency-Key']);
    const key = { 'idempotency-key': 'shared' };
    await call(sandbox, 'POST', '/_sandbox/clock/advance', { ...A, ...key }, { seconds: 60 });
    const other = await call(
      sandbox,
      'POST',
      '/_sandbox/clock/advance',
      { authorization: 'Bearer token-b', ...key },
      { seconds: 120 },
    );
    expect([other.status, other.headers.get('idempotent-replayed'), (await other.json()).data.now]).toEqual([
      200,
      null,
      '2026-01-01T00:02:00Z',
    ]);
  });
});

/**
 * A sandbox whose receiver fails every delivery (retried on the contract's own schedule) until token-a's clock has run
 * more than a day, then holds the next one until released: an advance of days is still running past its key's retention.
 */
async function heldPastADay() {
  let release!: () => void;
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const holding = new Promise<void>((resolve) => (reached = resolve));
  const fetch = async () => {
    if ((await sandbox.now({ accessToken: 'token-a' })).getTime() <= Date.UTC(2026, 0, 2))
      return new Response(null, { status: 500 });
    reached();
    await held;
    return new Response(null, { status: 204 });
  };
  const sandbox = await openControlSandbox({ webhookUrls: [HOOK_URL], fetch, retryCompression: 1 });
  return { sandbox, holding, release };
}

describe('resetTenant', () => {
  it('clears the tenant alone: objects, events, endpoints, faults and clock; ids start again from the seed', async () => {
    const sandbox = await openControlSandbox({ webhookUrls: [HOOK_URL], fetch: receiver().fetch });
    const control = controlA(sandbox);
    const first = (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data;
    const other = (await clientB(sandbox).POST('/merchant/v1/payments', { body: paymentBody() })).data!.data;
    await control.POST('/_sandbox/clock/advance', { body: { seconds: 60 } });
    await control.POST('/_sandbox/webhook-endpoints', { body: { url: 'http://merchant.test/other' } });
    await control.POST('/_sandbox/faults', {
      body: { operation_id: 'retrieveBalance', kind: 'server_error', count: 1 },
    });

    const reset = await control.POST('/_sandbox/reset');
    expect([reset.response.status, await reset.response.text()]).toEqual([204, '']);
    expect((await control.GET('/_sandbox/clock')).data?.data).toEqual({ now: '2026-01-01T00:00:00Z', mode: 'manual' });
    expect((await control.GET('/_sandbox/events')).data?.data).toEqual([]);
    expect((await control.GET('/_sandbox/deliveries')).data?.pagination.total).toBe(0);
    expect((await control.GET('/_sandbox/faults')).data?.data).toEqual([]);
    // Note: like a new tenant, it starts with the --webhook-url endpoints only.
    // (an operator's endpoint is listed by its source, never by its URL)
    expect((await control.GET('/_sandbox/webhook-endpoints')).data?.data.map((e) => [e.source, e.url])).toEqual([
      ['operator', null],
    ]);
    expect((await clientA(sandbox).GET('/payments')).data?.pagination.total).toBe(0);
    expect((await clientA(sandbox).GET('/balance')).response.status).toBe(200);
    const again = (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data;
    expect(again.id).toBe(first.id);
    // The other tenant kept everything.
    expect(
      (await clientB(sandbox).GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: other.id } } }))
        .data?.data.status,
    ).toBe('created');
  });

  it('keeps a real clock real, and lets a Variant B tenant pair a new secret key', async () => {
    const sandbox = await openControlSandbox({ clock: 'real' });
    await controlB(sandbox, 'pk_r', 'sk_1').POST('/_sandbox/reset');
    expect((await controlB(sandbox, 'pk_r', 'sk_2').GET('/_sandbox/clock')).data?.data.mode).toBe('real');
    expect((await controlB(sandbox, 'pk_r', 'sk_1').GET('/_sandbox/clock')).response.status).toBe(401);
  });
});
