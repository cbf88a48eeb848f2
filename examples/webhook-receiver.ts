import { createServer, type Server } from 'node:http';
import {
  applyServerTimeouts,
  createFetchWebhookHandler,
  createMemoryDedupe,
  createNodeWebhookHandler,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
} from '@merchant-payments/contract/webhooks';

/** Verifies one delivery by hand and says what changed. */
export async function describeDelivery(rawBody: string | Uint8Array, headers: Headers | Record<string, string>, secret: string): Promise<string> {
  try {
    const event = await verifyWebhook(rawBody, headers, secret); // pass the body exactly as received
    switch (event.type) {
      case 'payment.status_changed':
        return `payment ${event.data.id} is ${event.data.status} (${event.data.reason_code ?? 'no reason'})`;
      case 'payout.status_changed':
        return `payout ${event.data.id} is ${event.data.status}`;
      case 'appeal.status_changed':
        return `appeal ${event.data.appeal_id} is ${event.data.status}`;
    }
  } catch (error) {
    if (error instanceof WebhookVerificationError) return `rejected: ${error.reason}`;
    throw error;
  }
}

/** A Node receiver: reads the raw body itself, answers 200, or 400/401 with a problem body naming the reason. */
export function startReceiver(port: number, secrets: string[], onEvent: (event: WebhookEvent) => Promise<void>): Server {
  const handler = createNodeWebhookHandler({
    secrets, // several during a rotation
    // Delivery is at least once. In production claim X-Event-ID in your database (INSERT … ON CONFLICT DO NOTHING).
    dedupe: createMemoryDedupe(), // in memory: one process only
    onEvent, // throwing releases the claim and answers 500, so the retry is processed
  });
  // Closes a connection that sends nothing, or sends its request too slowly, within about 10 s.
  return applyServerTimeouts(createServer((req, res) => void handler(req, res))).listen(port, '127.0.0.1');
}

/** A fetch-style receiver for Bun, Deno and edge runtimes. */
export const fetchReceiver = (secret: string) =>
  createFetchWebhookHandler({ secrets: secret, onEvent: (event) => console.log(event.type, event.data.status) });
