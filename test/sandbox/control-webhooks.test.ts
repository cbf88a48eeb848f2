// The control API's webhook side: endpoints (a generated secret shown once and never again, a given one never shown,
// 20 at most, delete one or all), the event log and the delivery log with their filters, and redelivery.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { controlA, controlSandbox } from './control-fixtures.js';
import { call, clientA, HOOK_URL, paymentBody, receiver, SECRET } from './fixtures.js';

const A = { authorization: 'Bearer token-a' };
const OTHER_SECRET = `whsec_${Buffer.from('another-endpoint-secret-24-bytes').toString('base64')}`;

/** A fetch that records each request's URL and headers, and answers `status`. */
function recorder(status = 200) {
  const seen: { url: string; headers: Headers; body: string }[] = [];
  const fetch = async (request: Request) => {
    seen.push({ url: request.url, headers: request.headers, body: await request.text() });
    return new Response(null, { status });
  };
  return { seen, fetch };
}

async function cancelPayment(sandbox: ReturnType<typeof controlSandbox>) {
  const client = clientA(sandbox);
  const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
  await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
  await sandbox.settled();
  return payment;
}

describe('webhook endpoints', () => {
  it('creates an endpoint with a generated whsec_ secret, shown in the 201 only, that signs its deliveries', async () => {
    const hooks = recorder();
    const sandbox = controlSandbox({ fetch: hooks.fetch });
    const control = controlA(sandbox);
    const created = await control.POST('/_sandbox/webhook-endpoints', {
      body: { url: 'http://merchant.test/generated' },
    });
    expect(created.response.status).toBe(201);
    const endpoint = created.data!.data;
    expect(endpoint).toMatchObject({
      url: 'http://merchant.test/generated',
      layout: 'later',
      created_at: '2026-01-01T00:00:00Z',
    });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(endpoint.secret).not.toBe(SECRET);

    await cancelPayment(sandbox);
    const [delivery] = hooks.seen;
    // Note: verified independently, with the standardwebhooks package, which reads the later layout's signed content.
    const verified = new Webhook(endpoint.secret!).verify(delivery!.body, {
      'webhook-id': delivery!.headers.get('x-event-id')!,
      'webhook-timestamp': delivery!.headers.get('x-timestamp')!,
      'webhook-signature': delivery!.headers.get('x-signature')!,
    });
    expect((verified as { type: string }).type).toBe('payment.status_changed');

    const listed = await control.GET('/_sandbox/webhook-endpoints');
    expect(listed.data?.data).toEqual([
      { id: endpoint.id, url: endpoint.url, source: 'tenant', layout: 'later', created_at: endpoint.created_at },
    ]);
    expect(JSON.stringify(listed.data)).not.toContain(endpoint.secret!);
    const deliveries = await call(sandbox, 'GET', '/_sandbox/deliveries', A);
    expect(await deliveries.text()).not.toContain(endpoint.secret!.slice('whsec_'.length));
  });

  it('never repeats a given secret, and signs the earlier layout with it', async () => {
    const hooks = receiver({ allowEarlierLayout: true });
    const sandbox = controlSandbox({ fetch: hooks.fetch });
    const response = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', A, {
      url: HOOK_URL,
      secret: SECRET,
      layout: 'earlier',
    });
    const text = await response.text();
    expect(response.status).toBe(201);
    expect(text).not.toContain(SECRET.slice('whsec_'.length));
    expect(JSON.parse(text).data).not.toHaveProperty('secret');
    const payment = await cancelPayment(sandbox);
    // Note: the receiver verified it with the given secret; the earlier layout has no X-Timestamp.
    expect(hooks.events.map((e) => e.type)).toEqual(['payment.status_changed']);
    expect(hooks.requests[0]!.headers.get('x-timestamp')).toBeNull();
    expect(JSON.parse(hooks.requests[0]!.body).data.amount).toBe(paymentBody().amount);
    expect(payment.id).toMatch(/^pay_/);
  });

  it('lists newest first, the --webhook-url endpoints included, and deletes one (204, then 404) or all', async () => {
    const sandbox = controlSandbox({ webhookUrls: [HOOK_URL] });
    const control = controlA(sandbox);
    const second = (
      await control.POST('/_sandbox/webhook-endpoints', {
        body: { url: 'http://merchant.test/2', secret: OTHER_SECRET },
      })
    ).data!.data;
    const listed = (await control.GET('/_sandbox/webhook-endpoints')).data!.data;
    // Note: the --webhook-url endpoint is the operator's, whose URL tenants are not shown.
    expect(listed.map((e) => [e.url, e.source])).toEqual([
      ['http://merchant.test/2', 'tenant'],
      [null, 'operator'],
    ]);

    const removed = await control.DELETE('/_sandbox/webhook-endpoints/{endpointId}', {
      params: { path: { endpointId: second.id } },
    });
    expect([removed.response.status, await removed.response.text()]).toEqual([204, '']);
    const gone = await control.DELETE('/_sandbox/webhook-endpoints/{endpointId}', {
      params: { path: { endpointId: second.id } },
    });
    expect([gone.response.status, gone.error?.code]).toEqual([404, 'not_found']);
    expect((await control.GET('/_sandbox/webhook-endpoints')).data!.data.map((e) => e.source)).toEqual(['operator']);

    const all = await control.DELETE('/_sandbox/webhook-endpoints');
    expect(all.response.status).toBe(204);
    expect((await control.GET('/_sandbox/webhook-endpoints')).data!.data).toEqual([]);
    // Only this tenant's endpoints went.
    expect(
      (await controlA(sandbox, 'token-other').GET('/_sandbox/webhook-endpoints')).data!.data.map((e) => e.source),
    ).toEqual(['operator']);
  });

  it('holds 20 endpoints at most: the 21st gets 422 limit_reached', async () => {
    const sandbox = controlSandbox();
    const control = controlA(sandbox);
    for (let i = 0; i < 20; i += 1) {
      expect(
        (
          await control.POST('/_sandbox/webhook-endpoints', {
            body: { url: `http://merchant.test/${i}`, secret: OTHER_SECRET },
          })
        ).response.status,
      ).toBe(201);
    }
    const refused = await control.POST('/_sandbox/webhook-endpoints', { body: { url: 'http://merchant.test/21' } });
    expect([refused.response.status, refused.error?.code]).toEqual([422, 'limit_reached']);
    expect((await control.GET('/_sandbox/webhook-endpoints')).data!.data).toHaveLength(20);
  });

  it.each([
    ['an ftp URL', { url: 'ftp://merchant.test/hooks' }, '/url'],
    ['a relative URL', { url: 'not a url' }, '/url'],
    ['a URL over 2048 characters', { url: `http://merchant.test/${'x'.repeat(2048)}` }, '/url'],
    ['a short secret', { url: HOOK_URL, secret: 'whsec_short' }, '/secret'],
    ['an unknown layout', { url: HOOK_URL, layout: 'newest' }, '/layout'],
    ['an unknown property', { url: HOOK_URL, events: ['payment.status_changed'] }, '/events'],
    ['no url', {}, '/url'],
  ])('refuses %s with 422 validation_failed, and never quotes a secret', async (_label, body, pointer) => {
    const response = await call(controlSandbox(), 'POST', '/_sandbox/webhook-endpoints', A, body);
    const text = await response.text();
    const problem = JSON.parse(text);
    // Note: one member may break several keywords of its schema (a short secret: its length and its pattern).
    const pointers = new Set(problem.errors.map((e: { pointer: string }) => e.pointer));
    expect([response.status, problem.code, [...pointers]]).toEqual([422, 'validation_failed', [pointer]]);
    expect(text).not.toContain('whsec_short');
  });

  it('answers 422 at /endpointId to an id that is no ResourceId', async () => {
    const response = await call(controlSandbox(), 'DELETE', `/_sandbox/webhook-endpoints/${'x'.repeat(65)}`, A);
    expect([response.status, (await response.json()).errors[0].pointer]).toEqual([422, '/endpointId']);
  });
});

describe('listEvents', () => {
  it('lists every status change newest first with its later-layout event and trigger; filters by object_id; pages', async () => {
    const sandbox = controlSandbox();
    const client = clientA(sandbox);
    const kept = (await client.POST('/payments', { body: paymentBody() })).data!.data;
    const canceled = await cancelPayment(sandbox);
    await controlA(sandbox).POST('/_sandbox/clock/advance', { body: { seconds: 60 } });

    const all = (await controlA(sandbox).GET('/_sandbox/events')).data!;
    expect(all.pagination).toEqual({ total: 3, limit: 20, offset: 0 });
    expect(all.data.map((c) => [c.event.data.id, c.from, c.to, c.trigger])).toEqual([
      [kept.id, 'pending', 'succeeded', 'clock:processing'],
      [kept.id, 'created', 'pending', 'clock:processing'],
      [canceled.id, 'created', 'canceled', 'api:cancel'],
    ]);
    const event = all.data[0]!.event;
    expect([event.type, event.data.status, 'requisite' in event.data && 'holder' in event.data.requisite]).toEqual([
      'payment.status_changed',
      'succeeded',
      true,
    ]);

    const one = (await controlA(sandbox).GET('/_sandbox/events', { params: { query: { object_id: canceled.id } } }))
      .data!;
    expect([one.pagination.total, one.data.map((c) => c.to)]).toEqual([1, ['canceled']]);
    const page = (await controlA(sandbox).GET('/_sandbox/events', { params: { query: { limit: 1, offset: 1 } } }))
      .data!;
    expect([page.pagination, page.data.map((c) => c.to)]).toEqual([{ total: 3, limit: 1, offset: 1 }, ['pending']]);
    const past = (await controlA(sandbox).GET('/_sandbox/events', { params: { query: { offset: 10 } } })).data!;
    expect([past.pagination.total, past.data]).toEqual([3, []]);
  });

  it('refuses limit 0, limit 101, a negative offset and a repeated limit with 422', async () => {
    const sandbox = controlSandbox();
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'limit=1&limit=2', 'limit=ten', 'object_id=a%20b']) {
      const response = await call(sandbox, 'GET', `/_sandbox/events?${query}`, A);
      const problem = await response.json();
      expect([query, response.status, problem.code]).toEqual([query, 422, 'validation_failed']);
      expect(problem.errors[0].pointer).toBe(`/${query.split('=')[0]}`);
    }
  });
});

describe('listDeliveries and redeliverDelivery', () => {
  it('lists each delivery with its attempts; filters by event_id and state', async () => {
    const fetch = async (request: Request) =>
      new Response(null, { status: request.url.endsWith('/other') ? 503 : 200 });
    const sandbox = controlSandbox({ webhookUrls: [HOOK_URL], fetch });
    await controlA(sandbox).POST('/_sandbox/webhook-endpoints', {
      body: { url: 'http://merchant.test/other', secret: OTHER_SECRET },
    });
    await cancelPayment(sandbox);
    const control = controlA(sandbox);
    const all = (await control.GET('/_sandbox/deliveries')).data!;
    expect(all.pagination.total).toBe(2);
    const failedFirst = all.data.find((d) => d.attempts[0]!.outcome === 'failed')!;
    expect(failedFirst).toMatchObject({ state: 'scheduled', next_attempt_at: failedFirst.attempts[1]!.due_at });
    expect(failedFirst.attempts[0]).toMatchObject({
      number: 1,
      outcome: 'failed',
      response_status: 503,
      sent_at: '2026-01-01T00:00:00Z',
      // The sandbox times every answered attempt, whatever the answer.
      duration_ms: expect.any(Number),
    });
    expect(Number.isInteger(failedFirst.attempts[0]!.duration_ms)).toBe(true);
    expect(failedFirst.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(0);
    const succeeded = all.data.find((d) => d.attempts[0]!.outcome === 'succeeded')!;
    expect(succeeded.attempts[0]).toMatchObject({ response_status: 200, duration_ms: expect.any(Number) });
    expect(failedFirst.attempts[1]).not.toHaveProperty('duration_ms');
    expect(failedFirst.attempts[1]).toMatchObject({
      number: 2,
      outcome: 'pending',
      sent_at: null,
      response_status: null,
      error: null,
    });

    const scheduled = (await control.GET('/_sandbox/deliveries', { params: { query: { state: 'scheduled' } } })).data!;
    expect(scheduled.data.map((d) => d.id)).toEqual([failedFirst.id]);
    const byEvent = (
      await control.GET('/_sandbox/deliveries', { params: { query: { event_id: failedFirst.event_id } } })
    ).data!;
    expect(byEvent.pagination.total).toBe(2);
    const bad = await call(sandbox, 'GET', '/_sandbox/deliveries?state=lost', A);
    expect([bad.status, (await bad.json()).errors[0].pointer]).toEqual([422, '/state']);
  });

  it('redelivers a delivered event with the same X-Event-ID: a new attempt due now, then sent', async () => {
    const hooks = receiver();
    const sandbox = controlSandbox({ webhookUrls: [HOOK_URL], fetch: hooks.fetch });
    await cancelPayment(sandbox);
    const control = controlA(sandbox);
    const [delivery] = (await control.GET('/_sandbox/deliveries')).data!.data;
    expect(delivery!.state).toBe('delivered');
    const again = await control.POST('/_sandbox/deliveries/{deliveryId}/redeliver', {
      params: { path: { deliveryId: delivery!.id } },
    });
    expect(again.response.status).toBe(200);
    expect(again.data!.data).toMatchObject({
      id: delivery!.id,
      state: 'scheduled',
      next_attempt_at: '2026-01-01T00:00:00Z',
    });
    expect(again.data!.data.attempts.map((a) => [a.number, a.outcome])).toEqual([
      [1, 'succeeded'],
      [2, 'pending'],
    ]);
    await sandbox.settled();
    expect(hooks.requests.map((r) => r.headers.get('x-event-id'))).toEqual([delivery!.event_id, delivery!.event_id]);
    const after = (await control.GET('/_sandbox/deliveries')).data!.data[0]!;
    expect([after.state, after.attempts.length, after.attempts[1]!.outcome]).toEqual(['delivered', 2, 'succeeded']);
  });

  it('answers 404 to an unknown delivery and 422 invalid_state while an attempt is being sent', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const sandbox = controlSandbox({
      webhookUrls: [HOOK_URL],
      fetch: async () => {
        await held;
        return new Response(null, { status: 200 });
      },
    });
    const client = clientA(sandbox);
    const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
    await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
    const control = controlA(sandbox);
    const [sending] = (await control.GET('/_sandbox/deliveries')).data!.data;
    expect(sending!.state).toBe('due');
    const busy = await control.POST('/_sandbox/deliveries/{deliveryId}/redeliver', {
      params: { path: { deliveryId: sending!.id } },
    });
    expect([busy.response.status, busy.error?.code]).toEqual([422, 'invalid_state']);
    const unknown = await control.POST('/_sandbox/deliveries/{deliveryId}/redeliver', {
      params: { path: { deliveryId: 'dlv_unknown' } },
    });
    expect([unknown.response.status, unknown.error?.code]).toEqual([404, 'not_found']);
    release();
    await sandbox.settled();
  });

  it('refuses a redelivery past 100 attempts with 422 limit_reached', async () => {
    const sandbox = controlSandbox({ webhookUrls: [HOOK_URL], fetch: receiver().fetch });
    await cancelPayment(sandbox);
    const control = controlA(sandbox);
    const [delivery] = (await control.GET('/_sandbox/deliveries')).data!.data;
    const path = { params: { path: { deliveryId: delivery!.id } } };
    for (let i = 1; i < 100; i += 1) {
      expect((await control.POST('/_sandbox/deliveries/{deliveryId}/redeliver', path)).response.status).toBe(200);
      await sandbox.settled();
    }
    const refused = await control.POST('/_sandbox/deliveries/{deliveryId}/redeliver', path);
    expect([refused.response.status, refused.error?.code]).toEqual([422, 'limit_reached']);
  });
});
