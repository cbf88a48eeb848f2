// Testing your integration against the sandbox with Node's own test runner: a tenant and a webhook endpoint per test,
// outcomes picked by the sandbox's values, its clock moved by hand, a fault injected, deliveries read and redelivered.
//   node --test testing-node.test.mjs
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { after, afterEach, describe, it } from 'node:test';
import { applyServerTimeouts, createNodeWebhookHandler, createVariantBClient, generateWebhookSecret } from '@merchant-payments/contract';
import { createSandbox, createSandboxControlClient } from '@merchant-payments/sandbox';

// One sandbox for the file, in this process, over HTTP on a free port. Its clock is manual: nothing happens to a
// tenant's payments until the test moves that tenant's clock.
const sandbox = createSandbox({ clock: 'manual' });
const { url: baseUrl } = await sandbox.listen({ port: 0 });
after(() => sandbox.close());

/** A tenant of the test's own: new keys are a new tenant, with its own objects, clock, endpoints and deliveries. */
function newTenant(retry = false) {
  const keys = { baseUrl, publicKey: `pk_test_${randomUUID()}`, secretKey: 'sk_test_shop' };
  return { client: createVariantBClient({ ...keys, retry }), control: createSandboxControlClient(keys) };
}

const stopReceivers = [];
afterEach(async () => {
  await Promise.all(stopReceivers.splice(0).map((stop) => stop()));
});

/**
 * Your webhook receiver, on a port of its own, registered as the tenant's endpoint with a secret of the test's own.
 * `refuse(n)` makes it answer 500 to the next n deliveries, as a receiver whose database is down would.
 */
async function newEndpoint(control) {
  const secret = generateWebhookSecret();
  const events = [];
  let refusals = 0;
  const handle = createNodeWebhookHandler({
    secrets: secret,
    onEvent: (event) => {
      if (refusals > 0) {
        refusals -= 1;
        throw new Error('the shop database is down'); // answered 500, so the sandbox tries again later
      }
      events.push(event);
    },
  });
  const server = applyServerTimeouts(createServer((request, response) => void handle(request, response)));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  stopReceivers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${server.address().port}/webhooks`;
  const registered = await control.POST('/_sandbox/webhook-endpoints', { body: { url, secret } });
  if (registered.error) throw new Error(`could not register the endpoint: ${registered.error.code}`);
  return { events, refuse: (count) => void (refusals = count) };
}

/** Moves the tenant's clock; it answers once every delivery that fell due on the way has been made. */
async function advance(control, seconds) {
  const { error } = await control.POST('/_sandbox/clock/advance', { body: { seconds } });
  if (error) throw new Error(`could not advance the clock: ${error.code}`);
}

describe('payments', () => {
  it('succeed: the receiver hears pending, then succeeded, as the clock moves', async () => {
    const { client, control } = newTenant();
    const hooks = await newEndpoint(control);
    const { data, error } = await client.POST('/merchant/v1/payments', { body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card' } } });
    assert.equal(error, undefined);
    const payment = data.data;
    assert.equal(payment.status, 'created');

    await advance(control, 60);
    assert.deepEqual(hooks.events.map((event) => [event.data.id, event.data.status]), [[payment.id, 'pending'], [payment.id, 'succeeded']]);
    const retrieved = await client.GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: payment.id } } });
    assert.equal(retrieved.data.data.status, 'succeeded');
  });

  it('are declined by a sandbox value (docs/sandbox-values.md), with the reason in the webhook', async () => {
    const { client, control } = newTenant();
    const hooks = await newEndpoint(control);
    const { data } = await client.POST('/merchant/v1/payments', { body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card', bank: 'SANDBOX DECLINED' } } });

    await advance(control, 60);
    const last = hooks.events.at(-1);
    assert.equal(last.type, 'payment.status_changed');
    assert.deepEqual([last.data.id, last.data.status, last.data.reason_code], [data.data.id, 'failed', 'declined']);
  });

  it('expire when nobody pays before expires_at', async () => {
    const { client, control } = newTenant();
    const hooks = await newEndpoint(control);
    const { data } = await client.POST('/merchant/v1/payments', {
      body: { amount: '42.50', currency: 'EUR', expires_in: 900, requisite: { type: 'card', bank: 'SANDBOX EXPIRE' } },
    });

    await advance(control, 899);
    assert.deepEqual(hooks.events, []);
    await advance(control, 1);
    assert.deepEqual(hooks.events.map((event) => event.data.status), ['expired']);
    assert.equal(hooks.events[0].data.id, data.data.id);
  });
});

describe('faults', () => {
  it('a rate-limited create is retried with the same Idempotency-Key, and makes one payment', async () => {
    // The client retries a 429 after its Retry-After (cut to maxDelayMs), resending the same key.
    const { client, control } = newTenant({ attempts: 3, baseDelayMs: 10, maxDelayMs: 50 });
    await control.POST('/_sandbox/faults', { body: { operation_id: 'createPayment', kind: 'rate_limit', count: 1 } });

    const { data, error } = await client.POST('/merchant/v1/payments', { body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card' } } });
    assert.equal(error, undefined);
    const listed = await client.GET('/merchant/v1/payments');
    assert.deepEqual(listed.data.data.map((payment) => payment.id), [data.data.id]);
  });

  it('a server error reaches your code as a Problem when the client does not retry', async () => {
    const { client, control } = newTenant(false);
    await control.POST('/_sandbox/faults', { body: { operation_id: 'createPayment', kind: 'server_error', count: 1 } });

    const { error, response } = await client.POST('/merchant/v1/payments', { body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card' } } });
    assert.equal(response.status, 500);
    assert.deepEqual([error.status, error.code], [500, 'internal_error']);
  });
});

describe('webhook deliveries', () => {
  it('one your receiver refused is listed with its attempts, and a redelivery brings it in once', async () => {
    const { client, control } = newTenant();
    const hooks = await newEndpoint(control);
    hooks.refuse(1);
    await client.POST('/merchant/v1/payments', { body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card', bank: 'SANDBOX PENDING' } } });
    await advance(control, 2); // the payment turns pending: its event's first attempt is answered 500

    const failing = await control.GET('/_sandbox/deliveries');
    const [delivery] = failing.data.data;
    assert.equal(delivery.state, 'scheduled'); // a retry is due later on the tenant's clock
    assert.deepEqual([delivery.attempts[0].number, delivery.attempts[0].outcome, delivery.attempts[0].response_status], [1, 'failed', 500]);
    assert.deepEqual(hooks.events, []);

    // Send it again now, rather than waiting for its retry. The new attempt goes out right after the answer, and
    // settled() resolves once no delivery is in flight (against a sandbox your tests did not start, read the delivery
    // until its last attempt has an outcome).
    const again = await control.POST('/_sandbox/deliveries/{deliveryId}/redeliver', { params: { path: { deliveryId: delivery.id } } });
    assert.equal(again.error, undefined);
    await sandbox.settled();
    const delivered = await control.GET('/_sandbox/deliveries', { params: { query: { event_id: delivery.event_id } } });
    assert.equal(delivered.data.data[0].state, 'delivered');
    assert.deepEqual(hooks.events.map((event) => [event.id, event.data.status]), [[delivery.event_id, 'pending']]);
  });
});
