import { webhookExamples, type WebhookExample } from '../../generated/validators/webhook-examples.js';
import { checkLimits, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, deliver } from './deliver.js';
import { WEBHOOK_HEADERS } from './headers.js';
import { signWebhook } from './sign.js';
import type { WebhookEventType, WebhookLayout } from './types.js';

/** Options of sendWebhookExample. */
export interface SendWebhookExampleOptions {
  /** The receiver's address. */
  url: string | URL;
  /** The receiver's `whsec_…` secret, or several to send one signature per secret. */
  secret: string | readonly string[];
  /** Event type to send, one of the contract's (default: the first example of the layout, `payment.status_changed` for the later one). */
  type?: WebhookEventType;
  /** `later` (default) or the deprecated `earlier` layout. */
  layout?: WebhookLayout;
  /** Replaces the example's event id (X-Event-ID and body `id`), e.g. to test de-duplication. */
  id?: string;
  /** The clock used for X-Timestamp (default `Date.now`). */
  now?: () => number | Date;
  /** The fetch to send with (default the global one). */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
  /** How long the receiver may take to answer, headers and body together (default 10 000 ms; at most 2^31-1). */
  timeoutMs?: number;
  /** How many bytes of the answer are read before giving up (default 65 536). */
  maxResponseBytes?: number;
}

/** What the receiver answered, and what was sent. */
export interface SendWebhookExampleResult {
  status: number;
  body: string;
  event: WebhookExample['value'];
  headers: Record<string, string>;
}

const DEFAULT_USER_AGENT = 'merchant-payments-webhook-sender/0.1 (test delivery)';
const DEFAULT_TYPE: WebhookEventType = 'payment.status_changed';

/**
 * Sends one signed example event, built from the contract's named examples, and returns the receiver's answer;
 * throws WebhookSendError on a time-out, an answer over the size cap, a redirect or a network failure.
 */
export async function sendWebhookExample(options: SendWebhookExampleOptions): Promise<SendWebhookExampleResult> {
  const url = receiverUrl(options.url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  checkLimits(timeoutMs, maxResponseBytes);
  const layout = options.layout ?? 'later';
  const contract = webhookExamples.layouts[layout];
  if (!contract) throw new TypeError(`Unknown layout "${String(layout)}"; use "later" or "earlier".`);
  const example = pickExample(contract.examples, options.type ?? (layout === 'later' ? DEFAULT_TYPE : undefined));
  const event = options.id === undefined ? example.value : { ...example.value, id: options.id };
  const body = JSON.stringify(event);
  const time = options.now?.() ?? Date.now();
  const signature = await signWebhook({
    id: event.id,
    body,
    secret: options.secret,
    layout,
    timestamp: new Date(time),
  });
  const userAgent = contract.headers.find((header) => header.name === WEBHOOK_HEADERS.userAgent)?.example;
  const known: Record<string, string> = {
    ...signature,
    [WEBHOOK_HEADERS.type]: event.type,
    [WEBHOOK_HEADERS.userAgent]: typeof userAgent === 'string' ? userAgent : DEFAULT_USER_AGENT,
  };
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  for (const { name } of contract.headers) {
    const value = known[name];
    // Note: fails loudly when the contract gains a webhook header this sender does not know how to fill.
    if (value === undefined)
      throw new Error(`The contract's ${contract.webhook} lists header ${name}, which the sender cannot fill.`);
    headers[name] = value;
  }
  const answer = await deliver(url, { headers, body }, { timeoutMs, maxResponseBytes, fetch: options.fetch ?? fetch });
  return { status: answer.status, body: answer.body, event, headers };
}

function receiverUrl(value: string | URL): URL {
  const url = URL.canParse(String(value)) ? new URL(String(value)) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
    throw new TypeError('The receiver URL must be an absolute http:// or https:// URL.');
  }
  return url;
}

function pickExample(examples: readonly WebhookExample[], type: string | undefined): WebhookExample {
  const example = type === undefined ? examples[0] : examples.find((candidate) => candidate.value.type === type);
  if (!example) {
    const types = [...new Set(examples.map((candidate) => candidate.value.type))].join(', ');
    throw new TypeError(`The contract has no example of type "${String(type)}" for this layout; available: ${types}.`);
  }
  return example;
}
