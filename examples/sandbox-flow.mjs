// The sandbox flow over HTTP: create a payment, move the tenant's clock, receive the signed webhooks, see the new status.
// Run it beside the sandbox: npx merchant-payments sandbox --clock manual --webhook-url http://127.0.0.1:3000/webhooks -- node sandbox-flow.mjs
import { createServer } from 'node:http';
import { applyServerTimeouts, createNodeWebhookHandler, createVariantBClient, describeProblem } from '@merchant-payments/contract';
import { createSandboxControlClient } from '@merchant-payments/sandbox';

// Both set by the sandbox for the command it runs: its root URL (no /merchant/v1), and the whsec_ secret it signs
// with (yours when you set WEBHOOK_SECRET, else the one it generated).
const baseUrl = process.env.MERCHANT_PAYMENTS_SANDBOX_URL ?? 'http://127.0.0.1:4020';
const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('WEBHOOK_SECRET is not set: run this file through the sandbox command, or set it.');

// Your receiver, as in production: it verifies each delivery's signature and body before onEvent sees it.
// PORT moves it off 3000, as in receiver.mjs; the sandbox's --webhook-url must then name the same port.
const port = Number(process.env.PORT ?? 3000);
const received = [];
const receiver = applyServerTimeouts(createServer(createNodeWebhookHandler({ secrets: secret, onEvent: (event) => void received.push(event) })));
await new Promise((resolve) => receiver.listen(port, '127.0.0.1', resolve));

// Each public key is a tenant of its own, with its own objects and clock; the control API takes the same keys.
const keys = { baseUrl, publicKey: 'pk_test_flow', secretKey: 'sk_test_flow' };
const client = createVariantBClient(keys);
const control = createSandboxControlClient(keys);

try {
  const created = await client.POST('/merchant/v1/payments', { body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card' } } });
  if (created.error) throw new Error(`Create Payment failed: ${describeProblem(created.error)}`);
  const payment = created.data.data;
  console.log(`created ${payment.id}: ${payment.status}`);

  // With --clock manual nothing happens until the clock moves. The advance answers once every webhook that fell due
  // has been delivered, so the receiver has them now.
  const advanced = await control.POST('/_sandbox/clock/advance', { body: { seconds: 60 } });
  if (advanced.error) throw new Error(`Advance failed: ${describeProblem(advanced.error)}`);
  for (const event of received) console.log(`webhook ${event.type}: ${event.data.id} is ${event.data.status}`);

  const retrieved = await client.GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: payment.id } } });
  if (retrieved.error) throw new Error(`Retrieve Payment failed: ${describeProblem(retrieved.error)}`);
  console.log(`retrieved ${payment.id}: ${retrieved.data.data.status}`);
  if (received.length === 0) throw new Error(`No webhook arrived: was the sandbox started with --webhook-url http://127.0.0.1:${port}/webhooks?`);
} finally {
  receiver.close();
}
