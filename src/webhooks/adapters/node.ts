import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  checkHandlerOptions,
  handleWebhook,
  problem,
  tooLarge,
  type WebhookAnswer,
  type WebhookHandlerOptions,
} from './handle.js';

/** A receiver for Node's http server and frameworks built on it (Express, Fastify's raw request, Next.js API routes). */
export type NodeWebhookHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * Creates a receiver that reads the raw body itself (up to `maxBodyBytes`), verifies the delivery and hands its typed
 * event to `onEvent`. Mount it before any JSON body parser, or give it the raw bytes (e.g. `express.raw()`).
 */
export function createNodeWebhookHandler<AllowEarlier extends boolean = false>(
  options: WebhookHandlerOptions<AllowEarlier>,
): NodeWebhookHandler {
  const limit = checkHandlerOptions(options as WebhookHandlerOptions<boolean>);
  return async (req, res) => {
    if (req.method !== 'POST') return send(res, problem(405, 'method_not_allowed', 'Webhook deliveries are POST requests.'));
    let body: Uint8Array | undefined;
    try {
      body = await readBody(req, limit);
    } catch (error) {
      options.onError?.(error, 500);
      return send(res, problem(500, 'raw_body_unavailable', 'The receiver could not read the raw request body.'));
    }
    if (!body) {
      res.setHeader('connection', 'close');
      return send(res, tooLarge(limit));
    }
    send(res, await handleWebhook(body, req.headers, options as WebhookHandlerOptions<boolean>));
  };
}

async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array | undefined> {
  const parsed = (req as IncomingMessage & { body?: unknown }).body;
  if (typeof parsed === 'string') return new TextEncoder().encode(parsed);
  if (parsed instanceof Uint8Array) return parsed;
  if (parsed !== undefined || req.readableEnded) {
    // Note: once a JSON parser has consumed the stream, the exact bytes the signature covers are gone.
    throw new TypeError('The request body was already consumed; mount the webhook handler before JSON body parsers.');
  }
  if (Number(req.headers['content-length'] ?? 0) > limit) return undefined;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.resume(); // Note: the rest is drained and dropped so the 413 answer can still be written.
      resolve(undefined);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks, size)));
    req.once('error', reject);
  });
}

function send(res: ServerResponse, answer: WebhookAnswer): void {
  res.writeHead(answer.status, answer.headers).end(answer.body);
}
