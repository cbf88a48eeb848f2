import { readBounded } from '../../shared/read-bounded.js';
import {
  answerDelivery,
  checkHandlerOptions,
  readWithin,
  type ReadLimits,
  type WebhookHandlerOptions,
} from './handle.js';

/** A receiver for fetch-style runtimes (edge functions, Bun, Deno, service workers). */
export type FetchWebhookHandler = (request: Request) => Promise<Response>;

/** Creates a receiver that verifies each POSTed delivery and hands its typed event to `onEvent`; it always resolves to a Response. */
export function createFetchWebhookHandler<AllowEarlier extends boolean = false>(
  options: WebhookHandlerOptions<AllowEarlier>,
): FetchWebhookHandler {
  const shared = options as WebhookHandlerOptions<boolean>;
  const limits = checkHandlerOptions(shared);
  return async (request) => {
    const delivery = {
      method: request.method,
      headers: request.headers,
      read: (limits: ReadLimits) => readWithin(limits, (limit) => readBounded(request, limit)),
    };
    const answer = await answerDelivery(delivery, limits, shared);
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
}
