import { describe, expect, it } from 'vitest';
import {
  signWebhook,
  verifyWebhook,
  WebhookSignError,
  WebhookVerificationError,
} from '../../packages/contract/src/webhooks/index.js';
import { at, exampleEvent, SECRET, T0 } from './fixtures.js';

/** What signWebhook rejects with. */
async function refusal(promise: Promise<unknown>): Promise<WebhookSignError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookSignError);
  return error as WebhookSignError;
}

describe('signWebhook', () => {
  it.each(['later', 'earlier'] as const)(
    'refuses a %s-layout body whose id differs from the id given',
    async (layout) => {
      const event = exampleEvent('payment.status_changed', layout);
      const body = JSON.stringify(event);
      for (const raw of [body, Buffer.from(body), new TextEncoder().encode(body)]) {
        const error = await refusal(signWebhook({ id: 'evt_other', body: raw, secret: SECRET, layout, timestamp: T0 }));
        expect([error.name, error.reason]).toEqual(['WebhookSignError', 'id_mismatch']);
        expect(error.message).toBe(
          `signWebhook was given the id "evt_other", but the body's id is ${JSON.stringify(event.id)}: X-Event-ID must equal the body's id, ` +
            "so every receiver would reject the delivery (header_mismatch). Pass the body's id as id.",
        );
        expect(error.message).not.toContain(SECRET.slice('whsec_'.length));
      }
    },
  );

  it('refuses a body id of another type, and cuts a long one short in the message', async () => {
    const numeric = await refusal(signWebhook({ id: '42', body: '{"id":42}', secret: SECRET }));
    expect(numeric.message).toContain("the body's id is 42:");
    const long = await refusal(
      signWebhook({ id: 'evt_1', body: JSON.stringify({ id: 'x'.repeat(500) }), secret: SECRET }),
    );
    expect(long.message).toContain(`the body's id is "${'x'.repeat(79)}…:`);
  });

  it('signs a body with the same id, which verifyWebhook accepts', async () => {
    const event = exampleEvent();
    const body = JSON.stringify(event);
    const headers = await signWebhook({ id: event.id, body, secret: SECRET, timestamp: T0 });
    await expect(verifyWebhook(body, headers, SECRET, { now: at(T0) })).resolves.toEqual(event);
  });

  it('signs a body that is not JSON or has no id as given, which verifyWebhook then refuses by name', async () => {
    for (const [body, reason] of [
      ['not json', 'invalid_json'],
      ['{"type":"payment.status_changed"}', 'schema_mismatch'],
    ] as const) {
      const headers = await signWebhook({ id: 'evt_1', body, secret: SECRET, timestamp: T0 });
      const error = await verifyWebhook(body, headers, SECRET, { now: at(T0) }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect((error as WebhookVerificationError).reason).toBe(reason);
    }
  });
});
