import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../../packages/contract/src/webhooks/index.js';
import { at, delivery, exampleTypes, SECRET, T0 } from './fixtures.js';

const BASE64_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';
const headerText = fc
  .string({ minLength: 1, maxLength: 40 })
  .filter((text) => !/[\r\n]/.test(text) && text.trim() !== '');

/** The reason a tampered delivery is rejected with; fails the property when it is accepted. */
async function rejectionReason(body: Uint8Array, headers: Record<string, string>): Promise<WebhookVerificationReason> {
  try {
    await verifyWebhook(body, headers, SECRET, { now: at(T0) });
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  throw new Error('a tampered delivery was accepted');
}

describe('verifyWebhook', () => {
  const deliveries = exampleTypes.map((type) => {
    const { body, headers } = delivery(type);
    return { body: new TextEncoder().encode(body), headers };
  });
  const original = fc.constantFrom(...deliveries);

  it('rejects any change to the body bytes', async () => {
    await fc.assert(
      fc.asyncProperty(original, fc.nat(), fc.integer({ min: 1, max: 255 }), async ({ body, headers }, index, mask) => {
        const tampered = body.slice();
        tampered[index % body.length]! ^= mask;
        expect(await rejectionReason(tampered, headers)).toBe('no_matching_signature');
      }),
      { numRuns: 300 },
    );
  });

  it('rejects any change to the event id', async () => {
    await fc.assert(
      fc.asyncProperty(original, headerText, async ({ body, headers }, id) => {
        fc.pre(id.trim() !== headers['X-Event-ID']);
        expect(await rejectionReason(body, { ...headers, 'X-Event-ID': id })).toBe('no_matching_signature');
      }),
      { numRuns: 300 },
    );
  });

  it('rejects any change to the timestamp', async () => {
    const nearby = fc.integer({ min: T0 - 300, max: T0 + 300 }).map(String);
    await fc.assert(
      fc.asyncProperty(original, fc.oneof(nearby, headerText), async ({ body, headers }, timestamp) => {
        fc.pre(timestamp.trim() !== headers['X-Timestamp']);
        const reason = await rejectionReason(body, { ...headers, 'X-Timestamp': timestamp });
        expect(['no_matching_signature', 'malformed_timestamp', 'timestamp_too_old', 'timestamp_in_future']).toContain(
          reason,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('rejects any change to the signature', async () => {
    const edit = fc.tuple(fc.nat(), fc.constantFrom(...BASE64_CHARS, 'v', ',', ' '));
    await fc.assert(
      fc.asyncProperty(original, fc.oneof(edit, headerText), async ({ body, headers }, change) => {
        const signature = headers['X-Signature']!;
        const tampered =
          typeof change === 'string'
            ? change
            : signature.slice(0, change[0] % signature.length) +
              change[1] +
              signature.slice((change[0] % signature.length) + 1);
        fc.pre(tampered.trim() !== signature);
        const reason = await rejectionReason(body, { ...headers, 'X-Signature': tampered });
        expect(['no_matching_signature', 'malformed_signature', 'missing_header']).toContain(reason);
      }),
      { numRuns: 300 },
    );
  });
});
