import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBoundedNode } from '../../shared/read-bounded.js';
import {
  answerDelivery,
  checkHandlerOptions,
  readWithin,
  type BodyRead,
  type ReadLimits,
  type WebhookHandlerOptions,
} from './handle.js';
import type { WebhookAnswer } from './problem.js';

/** A receiver for Node's http server and frameworks built on it (Express, Fastify's raw request, Next.js API routes). */
export type NodeWebhookHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * Creates a receiver that reads the raw body itself (up to `maxBodyBytes`, within `readTimeoutMs`), verifies the
 * delivery and hands its typed event to `onEvent`. Mount it before any JSON body parser, or give it the raw bytes
 * (e.g. `express.raw()`). Its promise never rejects, so servers that ignore it stay up.
 */
export function createNodeWebhookHandler<AllowEarlier extends boolean = false>(
  options: WebhookHandlerOptions<AllowEarlier>,
): NodeWebhookHandler {
  const shared = options as WebhookHandlerOptions<boolean>;
  const limits = checkHandlerOptions(shared);
  return async (req, res) => {
    const request = { method: req.method, headers: req.headers, read: (limits: ReadLimits) => readBody(req, limits) };
    send(res, await answerDelivery(request, limits, shared));
  };
}

/** Reads the raw body of `req` within `limits`: its bytes, or why there are none. */
export async function readBody(req: IncomingMessage, limits: ReadLimits): Promise<BodyRead> {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  if (typeof parsed === 'string') return new TextEncoder().encode(parsed);
  if (parsed instanceof Uint8Array) return parsed;
  if (parsed !== undefined || req.readableEnded) {
    // Note: once a JSON parser has consumed the stream, the exact bytes the signature covers are gone.
    throw new TypeError('The request body was already consumed; mount the webhook handler before JSON body parsers.');
  }
  return readWithin(limits, (limit) => readBoundedNode(req, limit));
}

/** Writes `answer` to `res`, unless an answer was already written or the connection is gone. */
export function send(res: ServerResponse, answer: WebhookAnswer): void {
  if (res.headersSent || res.destroyed) return;
  // Note: after 408 or 413 part of the request is unread, so the connection cannot carry another request.
  const unread = answer.status === 408 || answer.status === 413;
  res.writeHead(answer.status, unread ? { ...answer.headers, connection: 'close' } : answer.headers).end(answer.body);
}
