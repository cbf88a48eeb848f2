// Servers with one defect each, for the conformance tests: the sandbox's fetch with one thing in its answers (or in
// how it treats credentials) changed, or the fetch its webhook deliveries go through with one thing in them changed.
import { createSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { createMemoryStore, type MemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import type { TenantStoreSettings } from '../../packages/sandbox/src/stores/types.js';
import { signWebhook } from '../../packages/contract/src/webhooks/index.js';

export type Fetch = (request: Request) => Promise<Response>;

/** Forgets everything between two requests: each one is answered by a new sandbox, whose ids start from the same seed. */
export async function forgetful(request: Request): Promise<Response> {
  const sandbox = createSandbox();
  try {
    const response = await sandbox.fetch(request);
    return new Response(await response.arrayBuffer(), { status: response.status, headers: response.headers });
  } finally {
    await sandbox.close();
  }
}

/** Rebuilds a response with another status, headers or body. */
const rebuilt = (
  response: Response,
  body: string,
  init: { status?: number; headers?: Record<string, string> } = {},
) => {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(init.headers ?? {})) headers.set(name, value);
  headers.delete('content-length');
  return new Response(body === '' ? null : body, { status: init.status ?? response.status, headers });
};

/** Rewrites the JSON body of a 200 answer. */
const edited = async (
  response: Response,
  edit: (json: { data?: Record<string, unknown>; pagination?: { total: number } }) => void,
) => {
  const text = await response.text();
  if (response.status !== 200) return rebuilt(response, text);
  const json = JSON.parse(text) as Parameters<typeof edit>[0];
  edit(json);
  return rebuilt(response, JSON.stringify(json));
};
const LIST = /\/(payments|payouts|appeals)$/;
const PAYMENT = /\/payments\/([^/]+)$/;
const paymentAction = (request: Request, action: string) =>
  new RegExp(`/payments/([^/]+)/${action}$`).exec(new URL(request.url).pathname)?.[1];

const hasCredentials = (request: Request) =>
  request.headers.has('authorization') || request.headers.has('x-public-key');

/** Each defect, as a change to the sandbox's fetch. */
export const defects: Record<string, (fetch: Fetch) => Fetch> = {
  /** Every `status` field of a 200 answer becomes a number. */
  wrongType: (fetch) => async (request) => {
    const response = await fetch(request);
    const text = await response.text();
    return response.status === 200
      ? rebuilt(response, text.replace(/"status":"[a-z_]+"/g, '"status":42'))
      : rebuilt(response, text);
  },
  /** 404 becomes 410, which no operation declares. */
  undeclaredStatus: (fetch) => async (request) => {
    const response = await fetch(request);
    const text = await response.text();
    return rebuilt(response, text, response.status === 404 ? { status: 410 } : {});
  },
  /** A request the sandbox rejects as invalid (422 validation_failed) crashes the server instead: a well-formed 500 problem. */
  serverError: (fetch) => async (request) => {
    const response = await fetch(request);
    const text = await response.text();
    if (response.status !== 422 || !text.includes('"validation_failed"')) return rebuilt(response, text);
    const problem = {
      type: 'https://docs.payments.example/problems/internal_error',
      title: 'Internal server error',
      status: 500,
      code: 'internal_error',
      request_id: 'req_broken0000',
    };
    return rebuilt(response, JSON.stringify(problem), { status: 500 });
  },
  /** A request without credentials is served as if it had the first merchant's. */
  ignoredCredentials: (fetch) => async (request) => {
    if (hasCredentials(request)) return fetch(request);
    const headers = new Headers(request.headers);
    headers.set('authorization', 'Bearer someone-else');
    headers.set('x-public-key', 'pk_someone_else');
    headers.set('x-secret-key', 'sk_someone_else');
    // Note: the body is read first: a streamed body (over HTTP) cannot be handed to a new Request as it is.
    const body = request.method === 'GET' ? undefined : await request.text();
    return fetch(new Request(request.url, { method: request.method, headers, body }));
  },
  /** Problems are sent as text/plain. */
  wrongContentType: (fetch) => async (request) => {
    const response = await fetch(request);
    const text = await response.text();
    return rebuilt(response, text, response.status >= 400 ? { headers: { 'content-type': 'text/plain' } } : {});
  },
  /** The declared RateLimit header is longer than its schema allows. */
  malformedHeader: (fetch) => async (request) => {
    const response = await fetch(request);
    return rebuilt(response, await response.text(), { headers: { RateLimit: 'r'.repeat(300) } });
  },
  /** A payment, once created, cannot be retrieved: its id answers 404, as an id that never existed does. */
  unretrievable: (fetch) => (request) => {
    const url = new URL(request.url);
    if (request.method !== 'GET' || !/\/payments\/[^/]+$/.test(url.pathname)) return fetch(request);
    url.pathname = url.pathname.replace(/[^/]+$/, 'pay_never_created');
    return fetch(new Request(url, { headers: request.headers }));
  },
  /** Every request is handled under a key of its own, as if the Idempotency-Key were ignored: a replay makes a second object. */
  ignoredIdempotencyKey: (fetch) => async (request) => {
    if (!request.headers.has('idempotency-key')) return fetch(request);
    const headers = new Headers(request.headers);
    headers.set('idempotency-key', crypto.randomUUID());
    return fetch(new Request(request.url, { method: request.method, headers, body: await request.text() }));
  },
  /** Every list says its pagination.total is one more than the items it has. */
  listTotalOffByOne: (fetch) => async (request) => {
    const response = await fetch(request);
    if (request.method !== 'GET' || !LIST.test(new URL(request.url).pathname)) return response;
    return edited(response, (json) => {
      if (json.pagination) json.pagination.total += 1;
    });
  },
  /** A canceled payment reads back as succeeded, a change the payment table has no row for (canceled is final). */
  illegalTransition: (fetch) => {
    const canceled = new Set<string>();
    return async (request) => {
      const response = await fetch(request);
      const id = paymentAction(request, 'cancel');
      if (request.method === 'POST' && id && response.status === 200) canceled.add(id);
      const read = PAYMENT.exec(new URL(request.url).pathname)?.[1];
      if (request.method !== 'GET' || !read || !canceled.has(read)) return response;
      return edited(response, (json) => {
        if (json.data)
          Object.assign(json.data, {
            status: 'succeeded',
            ...('reason_code' in json.data ? { reason_code: null } : {}),
          });
      });
    };
  },
  /** The refund is booked twice: the refunded payment shows twice its processed amount as refunded. */
  refundAboveProcessed: (fetch) => {
    const refunded = new Set<string>();
    const doubled = (json: { data?: Record<string, unknown> }) => {
      const money = json.data as { processed: { amount: string }; refunded: { amount: string } } | undefined;
      if (money) money.refunded.amount = (Number(money.processed.amount) * 2).toFixed(2);
    };
    return async (request) => {
      const response = await fetch(request);
      const id = paymentAction(request, 'refund');
      if (request.method === 'POST' && id && response.status === 200) {
        refunded.add(id);
        return edited(response, doubled);
      }
      const read = PAYMENT.exec(new URL(request.url).pathname)?.[1];
      return request.method === 'GET' && read && refunded.has(read) ? edited(response, doubled) : response;
    };
  },
  /** A body with a property the contract does not have is taken as a success. */
  acceptsInvalid: (fetch) => async (request) => {
    const body = await request.clone().text();
    if (body.includes('"not_in_the_contract"'))
      return new Response(JSON.stringify({ ok: true }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    return fetch(request);
  },
};

/** The secret of the endpoint a delivery goes to, as the sandbox signs it (the endpoint's own, else the sandbox's). */
type SecretOf = (url: string) => string;

/** A delivery with other headers or another body; the body is read first, as a sent Request's cannot be reused. */
const redelivered = (request: Request, headers: Record<string, string>, body: string) => {
  const changed = new Headers(request.headers);
  for (const [name, value] of Object.entries(headers)) changed.set(name, value);
  return new Request(request.url, { method: request.method, headers: changed, body, signal: request.signal });
};

/** Each webhook defect, as a change to the fetch the sandbox's deliveries go through. */
export const deliveryDefects: Record<string, (fetch: Fetch, secretOf: SecretOf) => Fetch> = {
  /** X-Signature is well-formed but wrong: a signature of other content (the body with one more space). */
  badSignature: (fetch, secretOf) => async (request) => {
    const body = await request.text();
    const id = request.headers.get('x-event-id') ?? '';
    const timestamp = request.headers.get('x-timestamp') ?? undefined;
    const wrong = await signWebhook({
      id,
      body: `${body} `,
      secret: secretOf(request.url),
      ...(timestamp ? { timestamp: Number(timestamp) } : { layout: 'earlier' as const }),
    });
    return fetch(redelivered(request, { 'X-Signature': wrong['X-Signature'] }, body));
  },
  /** Every attempt after the first of an event carries a new event id, in X-Event-ID and the body, signed correctly. */
  newEventIdOnRetry: (fetch, secretOf) => {
    const seen = new Set<string>();
    let retries = 0;
    return async (request) => {
      const body = await request.text();
      const id = request.headers.get('x-event-id') ?? '';
      if (!seen.has(id)) {
        seen.add(id);
        return fetch(redelivered(request, {}, body));
      }
      retries += 1;
      const fresh = `evt_retry${String(retries).padStart(6, '0')}`;
      const rewritten = body.replace(`"id":"${id}"`, `"id":"${fresh}"`);
      const timestamp = request.headers.get('x-timestamp') ?? undefined;
      const signed = await signWebhook({
        id: fresh,
        body: rewritten,
        secret: secretOf(request.url),
        ...(timestamp ? { timestamp: Number(timestamp) } : { layout: 'earlier' as const }),
      });
      return fetch(redelivered(request, signed, rewritten));
    };
  },
  /** A payment's change to canceled is never delivered, yet the sandbox is told 200, so it does not retry. */
  missingWebhook: (fetch) => async (request) => {
    const body = await request.text();
    const event = JSON.parse(body) as { type?: string; data?: { status?: string } };
    if (event.type === 'payment.status_changed' && event.data?.status === 'canceled')
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
    return fetch(redelivered(request, {}, body));
  },
};

/** The name of a defect of `defects` or `deliveryDefects`. */
export type Defect = string;

/** The secret the sandbox signs deliveries to `url` with: the endpoint's own, else the sandbox's. */
function endpointSecret(sandbox: Sandbox, store: MemoryStore, url: string): string {
  for (const [, tenant] of store.entries()) {
    const endpoint = tenant.endpoints.find((candidate) => candidate.url === url);
    if (endpoint) return endpoint.secret ?? sandbox.webhookSecret;
  }
  return sandbox.webhookSecret;
}

/** A fresh sandbox (manual clock) and its fetch, with a defect switched on when named; deliveries go over HTTP. */
export function server(defect?: Defect) {
  const delivery = defect !== undefined && Object.hasOwn(deliveryDefects, defect) ? deliveryDefects[defect] : undefined;
  let memory: MemoryStore | undefined;
  const send: Fetch = (request) => globalThis.fetch(request);
  // Note: called only for deliveries, once the sandbox exists.
  const secretOf = (url: string) => endpointSecret(created, memory as MemoryStore, url);
  const store = (settings: TenantStoreSettings) => (memory = createMemoryStore(settings));
  const created: Sandbox = createSandbox({
    clock: 'manual',
    seed: 'conformance',
    store,
    ...(delivery ? { fetch: delivery(send, secretOf) } : {}),
  });
  const fetch: Fetch = (request) => created.fetch(request);
  const answering = defect !== undefined && Object.hasOwn(defects, defect) ? defects[defect] : undefined;
  return { sandbox: created, fetch: answering ? answering(fetch) : fetch };
}
