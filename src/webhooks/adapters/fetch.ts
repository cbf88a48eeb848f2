import { concatBytes } from '../crypto.js';
import {
  answerDelivery,
  checkHandlerOptions,
  type BodyRead,
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
    const delivery = { method: request.method, headers: request.headers, read: (limits: ReadLimits) => readBody(request, limits) };
    const answer = await answerDelivery(delivery, limits, shared);
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
}

async function readBody(request: Request, { maxBodyBytes, readTimeoutMs }: ReadLimits): Promise<BodyRead> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBodyBytes) return 'too_large';
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<'timed_out'>((resolve) => (timer = setTimeout(resolve, readTimeoutMs, 'timed_out')));
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const next = await Promise.race([reader.read(), deadline]);
      if (next === 'timed_out') return stop(reader, next);
      if (next.done) return concatBytes(...chunks);
      size += next.value.length;
      if (size > maxBodyBytes) return stop(reader, 'too_large');
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
}

function stop(reader: ReadableStreamDefaultReader<Uint8Array>, outcome: 'timed_out' | 'too_large'): BodyRead {
  // Note: not awaited, since a stalled sender may never let the cancellation finish.
  reader.cancel().catch(() => undefined);
  return outcome;
}
