import {
  checkHandlerOptions,
  handleWebhook,
  problem,
  tooLarge,
  type WebhookAnswer,
  type WebhookHandlerOptions,
} from './handle.js';

/** A receiver for fetch-style runtimes (edge functions, Bun, Deno, service workers). */
export type FetchWebhookHandler = (request: Request) => Promise<Response>;

/** Creates a receiver that verifies each POSTed delivery and hands its typed event to `onEvent`. */
export function createFetchWebhookHandler<AllowEarlier extends boolean = false>(
  options: WebhookHandlerOptions<AllowEarlier>,
): FetchWebhookHandler {
  const limit = checkHandlerOptions(options as WebhookHandlerOptions<boolean>);
  return async (request) => {
    if (request.method !== 'POST') return toResponse(problem(405, 'method_not_allowed', 'Webhook deliveries are POST requests.'));
    const body = await readLimited(request, limit);
    if (!body) return toResponse(tooLarge(limit));
    return toResponse(await handleWebhook(body, request.headers, options as WebhookHandlerOptions<boolean>));
  };
}

async function readLimited(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) return undefined;
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.length;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(next.value);
  }
  const body = new Uint8Array(size);
  chunks.reduce((offset, chunk) => (body.set(chunk, offset), offset + chunk.length), 0);
  return body;
}

function toResponse(answer: WebhookAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
