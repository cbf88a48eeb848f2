// A merchant's flow against the sandbox, in-process (no port): create a payment, advance the clock, receive and
// verify the webhook with your own receiver, then retrieve the payment and see its new status.
import { randomBytes } from 'node:crypto';
import { createFetchWebhookHandler, createVariantBClient, type WebhookEvent } from '@merchant-payments/contract';
import { createSandbox, createSandboxControlClient } from '@merchant-payments/sandbox';

/** Runs the flow and prints one line per step. */
export async function sandboxFlow(log: (line: string) => void = console.log): Promise<void> {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const received: WebhookEvent[] = [];
  // Your receiver, as in production: it verifies each delivery's signature and body before onEvent sees it.
  const receiver = createFetchWebhookHandler({ secrets: secret, onEvent: (event) => void received.push(event) });
  // The sandbox delivers to the receiver in-process; its clock stands still until advanced (clock: 'manual').
  const sandbox = createSandbox({ clock: 'manual', webhookSecret: secret, webhookUrls: ['https://merchant.example/webhooks'], fetch: receiver });
  // Each public key is a tenant of its own, so parallel tests do not see each other's payments.
  const keys = { baseUrl: 'http://sandbox.test', publicKey: 'pk_test_flow', secretKey: 'sk_test_flow', fetch: sandbox.fetch };
  const client = createVariantBClient(keys);
  // The control API (/_sandbox) moves this tenant's clock; over HTTP, the same calls with a baseUrl and no fetch.
  const control = createSandboxControlClient(keys);

  const created = await client.POST('/merchant/v1/payments', { body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card' } } });
  if (created.error) throw new Error(`Create Payment failed: ${created.error.code}`);
  const payment = created.data.data;
  log(`created ${payment.id}: ${payment.status}`);

  // A minute passes on this tenant's clock: the payment is processed, and each status change is delivered before
  // the advance answers.
  await control.POST('/_sandbox/clock/advance', { body: { seconds: 60 } });
  for (const event of received) log(`webhook ${event.type}: ${event.data.id} is ${event.data.status}`);

  const retrieved = await client.GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: payment.id } } });
  log(`retrieved ${payment.id}: ${retrieved.data?.data.status}`);
  await sandbox.close();
}
