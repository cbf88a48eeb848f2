// A project that installed the package from its tarball: both clients, the sandbox control client's types, the webhook
// verifier and the shipped specs.
// Type-checked by tarball.test.ts in a temporary project under node16 and bundler resolution; the commands and runnable
// examples of the README are run from the tarball by readme.test.ts.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createVariantAClient, createVariantBClient, paginate, type VariantB } from '@merchant-payments/contract';
import { createSandboxControlClient, type SandboxControl } from '@merchant-payments/sandbox';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '@merchant-payments/contract/webhooks';

const [urlA, urlB] = process.argv.slice(2);
if (!urlA || !urlB) throw new Error('usage: node consumer.js <variant A mock URL> <variant B mock URL>');

const a = createVariantAClient({ baseUrl: urlA, accessToken: 'test-token', retry: false });
const b = createVariantBClient({ baseUrl: urlB, publicKey: 'pk_test', secretKey: 'sk_test', retry: false });

// Never called: the sandbox's control client, typed from its own document, with either variant's credentials.
export async function controlTheSandbox(url: string): Promise<SandboxControl.ClockAdvance | undefined> {
  const control = createSandboxControlClient({ baseUrl: url, publicKey: 'pk_test', secretKey: 'sk_test' });
  // @ts-expect-error seconds is a number
  void control.POST('/_sandbox/clock/advance', { body: { seconds: '60' } });
  const { data } = await control.POST('/_sandbox/clock/advance', { body: { seconds: 60 } });
  return data?.data;
}

// Never called: the types reject each variant's calls on the other's client.
export function wrongVariant(): void {
  // @ts-expect-error Variant A has no /merchant/v1 prefix.
  void a.GET('/merchant/v1/payments');
  // @ts-expect-error Variant B has no Confirm Payment.
  void b.POST('/payments/{id}/confirm', { params: { path: { id: 'x' } }, body: { reference: 'r' } });
}

const confirmed = await a.POST('/payments/{id}/confirm', {
  params: { path: { id: 'pay_8f3k2m9q4w7x' } },
  body: { reference: 'order-1042' },
});
if (!confirmed.data) throw new Error(`confirm failed: ${confirmed.response.status}`);
const finalizedAt: string = confirmed.data.data.finalized_at;

const payouts: VariantB.Payout[] = [];
for await (const payout of paginate(b, '/merchant/v1/payouts', { params: { query: { limit: 10 } } }))
  payouts.push(payout);
const refund = await b.POST('/merchant/v1/payments/{paymentId}/refund', {
  params: { path: { paymentId: 'pay_8f3k2m9q4w7x' } },
});

const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const event = JSON.parse(readFileSync('event.json', 'utf8')) as { id: string };
const body = JSON.stringify(event);
const headers = await signWebhook({ id: event.id, body, secret });
const verified = await verifyWebhook(body, headers, secret);
let rejected = '';
try {
  await verifyWebhook(body.replace('succeeded', 'failed'), headers, secret);
} catch (error) {
  if (error instanceof WebhookVerificationError) rejected = error.reason;
}

const spec = readFileSync(
  fileURLToPath(import.meta.resolve('@merchant-payments/contract/openapi/variant-b.yaml')),
  'utf8',
);

console.log(
  JSON.stringify({
    confirmed: { status: confirmed.data.data.status, finalizedAt },
    payouts: payouts.map((p) => p.id),
    refund: { http: refund.response.status, status: refund.data?.data.status },
    webhook: { type: verified.type, id: verified.id, tampered: rejected },
    spec: spec.split('\n', 1)[0],
  }),
);
