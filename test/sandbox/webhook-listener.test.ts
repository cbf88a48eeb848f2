// Connect Webhook Listener on the memory store, served over HTTP in this process: the ready frame, attempts signed as
// any delivery and their outcomes in the delivery log, retries and redelivery, the listener as an endpoint while it
// is connected, resuming after a drop, and what is refused (bad frames, bad credentials, a plain GET).
import { request as httpRequest } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { verifyWebhook } from '@merchant-payments/contract';
import type { Sandbox } from '../../packages/sandbox/src/index.js';
import type { MemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import { call, clientA, clientB, newSandbox, paymentBody } from './fixtures.js';
import { connectListener, type Frame, type TestListener } from './listener-client.js';

const A = { authorization: 'Bearer token-a' };

async function served(options: Parameters<typeof newSandbox>[0] = {}) {
  const sandbox = newSandbox({ clock: 'manual', ...options });
  const { url } = await sandbox.listen({ port: 0 });
  return { sandbox, url };
}

/** Creates a payment and cancels it: one status change, so one delivery per endpoint. */
async function cancelPayment(sandbox: Sandbox) {
  const client = clientA(sandbox);
  const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
  await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
  return payment;
}

const answer = (listener: TestListener, frame: Frame, outcome: Record<string, unknown>) =>
  listener.ws.send(
    JSON.stringify({ type: 'outcome', delivery_id: frame.delivery_id, attempt: frame.attempt, ...outcome }),
  );

async function deliveries(sandbox: Sandbox) {
  const response = await call(sandbox, 'GET', '/_sandbox/deliveries', A);
  return ((await response.json()) as { data: Record<string, unknown>[] }).data;
}

async function endpoints(sandbox: Sandbox) {
  const response = await call(sandbox, 'GET', '/_sandbox/webhook-endpoints', A);
  return ((await response.json()) as { data: Record<string, unknown>[] }).data;
}

/** Polls `read` until `done` holds of it (the outcome is recorded after the frame is answered). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; ; i += 1) {
    const value = await read();
    if (done(value) || i > 200) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('Connect Webhook Listener', { timeout: 30_000 }, () => {
  it('says ready with a whsec_ secret, forwards attempts it signs and records their outcome', async () => {
    const { sandbox, url } = await served();
    const listener = await connectListener(url, A, { forward_to: 'http://127.0.0.1:3000/hook?token=x' });
    const ready = await listener.next('ready');
    const { id, secret } = ready.listener as { id: string; secret: string };
    expect(id).toMatch(/^we_/);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(await endpoints(sandbox)).toEqual([
      expect.objectContaining({ id, url: 'http://127.0.0.1:3000/hook', source: 'tenant', listener: true }),
    ]);

    const payment = await cancelPayment(sandbox);
    const attempt = await listener.next('attempt');
    const headers = attempt.headers as Record<string, string>;
    expect(
      Object.keys(headers)
        .map((h) => h.toLowerCase())
        .sort(),
    ).toEqual(['content-type', 'user-agent', 'x-event-id', 'x-event-type', 'x-signature', 'x-timestamp'].sort());
    const event = await verifyWebhook(attempt.body as string, headers, secret);
    expect(event).toMatchObject({ type: 'payment.status_changed', data: { id: payment.id, status: 'canceled' } });
    expect(attempt).toMatchObject({ attempt: 1, event_id: event.id });

    answer(listener, attempt, { status: 204, duration_ms: 12 });
    const [delivery] = await until(
      () => deliveries(sandbox),
      (list) => list[0]?.state === 'delivered',
    );
    expect(delivery).toMatchObject({
      endpoint_id: id,
      state: 'delivered',
      attempts: [expect.objectContaining({ outcome: 'succeeded', response_status: 204, duration_ms: 12 })],
    });

    listener.ws.close(1000);
    expect((await listener.closed).code).toBe(1000);
    expect(
      await until(
        () => endpoints(sandbox),
        (list) => list.length === 0,
      ),
    ).toEqual([]);
  });

  it('retries a failed attempt on the schedule, and redelivers', async () => {
    const { sandbox, url } = await served();
    const listener = await connectListener(url, A);
    await listener.next('ready');
    await cancelPayment(sandbox);
    const first = await listener.next('attempt');
    answer(listener, first, { error: 'network: ECONNREFUSED.', duration_ms: 1 });
    const [failed] = await until(
      () => deliveries(sandbox),
      (list) => list[0]?.state === 'scheduled' && (list[0].attempts as unknown[]).length === 2,
    );
    expect((failed!.attempts as Record<string, unknown>[])[0]).toMatchObject({
      outcome: 'failed',
      response_status: null,
      error: 'network: ECONNREFUSED.',
    });

    // Note: the advance waits for the attempts it sends, so it is awaited once the listener has answered them.
    const advancing = sandbox.advance({ accessToken: 'token-a' }, 1);
    const second = await listener.next('attempt');
    expect(second).toMatchObject({ delivery_id: first.delivery_id, attempt: 2, event_id: first.event_id });
    answer(listener, second, { status: 500, duration_ms: 3 });
    await advancing;
    const [retried] = await deliveries(sandbox);
    expect((retried!.attempts as Record<string, unknown>[])[1]).toMatchObject({
      outcome: 'failed',
      response_status: 500,
    });

    const redelivered = await call(sandbox, 'POST', `/_sandbox/deliveries/${String(first.delivery_id)}/redeliver`, A);
    expect(redelivered.status).toBe(200);
    const third = await listener.next('attempt');
    answer(listener, third, { status: 200, duration_ms: 5 });
    const [done] = await until(
      () => deliveries(sandbox),
      (list) => list[0]?.state === 'delivered',
    );
    expect(done!.state).toBe('delivered');
    listener.ws.close(1000);
  });

  it('keeps a dropped listener for its lease, and a reconnection naming it gets what fell due meanwhile', async () => {
    const { sandbox, url } = await served();
    const first = await connectListener(url, A);
    const { id, secret } = (await first.next('ready')).listener as { id: string; secret: string };
    first.ws.terminate();
    await first.closed;
    await cancelPayment(sandbox);
    expect(await endpoints(sandbox)).toEqual([expect.objectContaining({ id, listener: true })]);

    const again = await connectListener(url, A, { forward_to: 'http://127.0.0.1:9/hook', listener: id });
    expect((await again.next('ready')).listener).toEqual({ id, secret });
    const attempt = await again.next('attempt');
    expect(attempt.attempt).toBe(1);
    await verifyWebhook(attempt.body as string, attempt.headers as Record<string, string>, secret);
    again.ws.close(1000);
  });

  it('puts back an attempt its connection lost, and removes the listener once its lease runs out', async () => {
    let wall = Date.parse('2026-06-01T00:00:00Z');
    const { sandbox, url } = await served({ now: () => wall });
    const listener = await connectListener(url, A);
    await listener.next('ready');
    await cancelPayment(sandbox);
    await listener.next('attempt');
    listener.ws.terminate();
    // Note: read from the memory store, since the log shows a taken attempt and one put back alike (`due`).
    const [, tenant] = (sandbox.store as MemoryStore).entries()[0]!;
    const back = await until(
      async () => ({ due: tenant.due.length, sending: tenant.sending.length }),
      (queues) => queues.due === 1,
    );
    expect(back).toEqual({ due: 1, sending: 0 });
    expect(await endpoints(sandbox)).toEqual([expect.objectContaining({ listener: true })]);

    wall += 61_000;
    expect(await endpoints(sandbox)).toEqual([]);
    await sandbox.advance({ accessToken: 'token-a' }, 3600);
    const [delivery] = await deliveries(sandbox);
    expect(delivery).toMatchObject({ state: 'failed' });
    expect((delivery!.attempts as Record<string, unknown>[])[0]).toMatchObject({
      outcome: 'failed',
      error: 'The endpoint was removed before this attempt.',
    });
  });

  it("leaves a dropped listener's attempts waiting without waking this instance over and over", async () => {
    const { sandbox, url } = await served();
    const kept = await connectListener(url, A);
    await kept.next('ready');
    const dropped = await connectListener(url, A);
    const { id } = (await dropped.next('ready')).listener as { id: string };
    dropped.ws.terminate();
    await dropped.closed;
    const bus = sandbox.store.listenerBus!;
    const published: string[] = [];
    const unsubscribe = bus.subscribe((_tenant, endpoint) => published.push(endpoint));
    onTestFinished(unsubscribe);
    await cancelPayment(sandbox);
    answer(kept, await kept.next('attempt'), { status: 200, duration_ms: 1 });
    // Note: the dropped listener's attempt waits for it (or its lease); each flush that meets it says so once.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(published.length).toBeGreaterThan(0);
    expect(published.length).toBeLessThan(10);
    expect(new Set(published)).toEqual(new Set([id]));
    kept.ws.close(1000);
  });

  it("counts against the tenant's rate limit once, when it opens", async () => {
    const wall = Date.parse('2026-06-01T00:00:00Z');
    const { sandbox, url } = await served({ now: () => wall, rateLimit: 2 });
    const listener = await connectListener(url, A);
    await listener.next('ready');
    const payments = () => call(sandbox, 'GET', '/payments', A);
    expect((await payments()).status).toBe(200);
    expect((await payments()).status).toBe(429);
    listener.ws.close(1000);
  });

  it("takes Variant B's key pair as well, naming the same tenant as its API calls", async () => {
    const { sandbox, url } = await served();
    const pair = { 'x-public-key': 'pk_test', 'x-secret-key': 'sk_test' };
    const listener = await connectListener(url, pair);
    const { secret } = (await listener.next('ready')).listener as { secret: string };
    const client = clientB(sandbox);
    const payment = (await client.POST('/merchant/v1/payments', { body: paymentBody() })).data!.data;
    // Note: the advance waits for the listener's outcomes, so it is awaited once the listener has gone.
    const advancing = sandbox.advance({ publicKey: 'pk_test' }, 3600);
    const attempt = await listener.next('attempt');
    const event = await verifyWebhook(attempt.body as string, attempt.headers as Record<string, string>, secret);
    expect(event.data).toMatchObject({ id: payment.id });
    answer(listener, attempt, { status: 200 });
    listener.ws.close(1000);
    await advancing;
  });

  it('counts toward the endpoint quota', async () => {
    const { url } = await served({ quotas: { webhookEndpoints: 1 } });
    const one = await connectListener(url, A);
    await one.next('ready');
    const refused = await connectListener(url, A).catch((error: { status: number; body: string }) => error);
    expect(refused).toMatchObject({ status: 422 });
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ code: 'limit_reached' });
    one.ws.close(1000);
  });

  it('forwards to a loopback address in issued mode, where the egress rule refuses it to an endpoint', async () => {
    const { sandbox, url } = await served({ auth: 'issued' });
    const issued = await sandbox.store.registry!.create(Date.now());
    const headers = { authorization: `Bearer ${issued.accessToken}` };
    const refused = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', headers, {
      url: 'http://127.0.0.1:3000/hook',
    });
    expect(refused.status).toBe(422);
    const listener = await connectListener(url, headers, { forward_to: 'http://127.0.0.1:3000/hook' });
    const { secret } = (await listener.next('ready')).listener as { secret: string };
    const client = clientA(sandbox, issued.accessToken);
    const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
    await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
    const attempt = await listener.next('attempt');
    await verifyWebhook(attempt.body as string, attempt.headers as Record<string, string>, secret);
    listener.ws.close(1000);
  });

  it.each([
    ['not JSON', 'hello', 'A frame is not JSON.'],
    ['another type', JSON.stringify({ type: 'attempt' }), 'A frame has a type other than "outcome".'],
    [
      'both status and error',
      JSON.stringify({ type: 'outcome', delivery_id: 'dlv_1', attempt: 1, status: 200, error: 'x' }),
      'An outcome has either status or error.',
    ],
  ])('closes with 1008 on a frame that is %s', async (_what, frame, reason) => {
    const { url } = await served();
    const listener = await connectListener(url, A);
    await listener.next('ready');
    listener.ws.send(frame);
    expect(await listener.closed).toEqual({ code: 1008, reason });
  });

  it('closes with 1008 on a binary frame and 1009 on one past 4 KiB', async () => {
    const { url } = await served();
    const binary = await connectListener(url, A);
    await binary.next('ready');
    binary.ws.send(Buffer.from('{}'));
    expect((await binary.closed).code).toBe(1008);
    const large = await connectListener(url, A);
    await large.next('ready');
    large.ws.send('x'.repeat(5000));
    expect((await large.closed).code).toBe(1009);
  });

  it('refuses bad credentials with the control API 401 problem', async () => {
    const { url } = await served({ auth: 'issued' });
    const refused = await connectListener(url, { authorization: 'Bearer nobody' }).catch(
      (error: { status: number; body: string }) => error,
    );
    expect(refused).toMatchObject({ status: 401 });
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('answers an upgrade that is no WebSocket handshake as a plain request, making no listener', async () => {
    const { sandbox, url } = await served();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${url}/_sandbox/webhook-listener?forward_to=http%3A%2F%2F127.0.0.1%2Fh`, {
        headers: { ...A, connection: 'Upgrade', upgrade: 'websocket' },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      request.on('upgrade', () => reject(new Error('upgraded without a Sec-WebSocket-Key')));
      request.on('error', reject);
      request.end();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'bad_request' });
    expect(await endpoints(sandbox)).toEqual([]);
  });

  it('answers a plain GET with a 400 naming the Upgrade header', async () => {
    const { sandbox } = await served();
    const response = await call(sandbox, 'GET', '/_sandbox/webhook-listener?forward_to=http%3A%2F%2F127.0.0.1%2Fh', A);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toContain('Upgrade: websocket');
    expect(await endpoints(sandbox)).toEqual([]);
  });
});
