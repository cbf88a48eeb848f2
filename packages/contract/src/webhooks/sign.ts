import { bodyBytes, hmacSha256Base64, secretKeyList, type SignedParts, type WebhookBody } from './crypto.js';
import { WebhookSignError } from './sign-error.js';
import type { WebhookLayout } from './types.js';

/** What signWebhook signs: the event id, the delivery time, the exact body bytes, with one secret or several. */
export interface SignWebhookInput {
  /** The event id, sent as X-Event-ID; it must equal the body's `id` (WebhookSignError `id_mismatch` otherwise). */
  id: string;
  /** The exact body that will be sent; one that is not JSON, or has no `id`, is signed as given (to test a receiver's refusal). */
  body: WebhookBody;
  /** One `whsec_…` secret, or several to send one signature per secret (rotation). */
  secret: string | readonly string[];
  /** Delivery time: Unix seconds or a Date (default: now); ignored for the earlier layout. */
  timestamp?: number | Date;
  /** `later` (default) signs `${id}.${timestamp}.${body}`; `earlier` signs `${id}.${body}` and sends no timestamp. */
  layout?: WebhookLayout;
}

/** Header values that authenticate a later-layout delivery. */
// Note: a type alias, not an interface, so that it can be passed straight to verifyWebhook as a header record.
export type WebhookSignatureHeaders = {
  'X-Event-ID': string;
  'X-Timestamp': string;
  'X-Signature': string;
};

/** Header values that authenticate an earlier-layout delivery (no timestamp). */
export type EarlierWebhookSignatureHeaders = Omit<WebhookSignatureHeaders, 'X-Timestamp'>;

/** What a signature covers: `${id}.${timestamp}.${body}`, or `${id}.${body}` without a timestamp (UTF-8 prefix, raw body bytes). */
export function signedContent(id: string, timestamp: string | undefined, body: WebhookBody): SignedParts {
  const prefix = timestamp === undefined ? `${id}.` : `${id}.${timestamp}.`;
  return [prefix, bodyBytes(body)];
}

/**
 * Signs a delivery and returns its X-Event-ID, X-Timestamp and X-Signature header values; throws WebhookSignError
 * `id_mismatch` when the body's `id` differs from `id`, which every receiver would reject.
 */
export function signWebhook(input: SignWebhookInput & { layout: 'earlier' }): Promise<EarlierWebhookSignatureHeaders>;
/** Signs a delivery and returns its X-Event-ID, X-Timestamp and X-Signature header values. */
export function signWebhook(input: SignWebhookInput & { layout?: 'later' }): Promise<WebhookSignatureHeaders>;
/** Signs a delivery and returns its X-Event-ID, X-Timestamp and X-Signature header values. */
export function signWebhook(input: SignWebhookInput): Promise<WebhookSignatureHeaders | EarlierWebhookSignatureHeaders>;
export async function signWebhook(
  input: SignWebhookInput,
): Promise<WebhookSignatureHeaders | EarlierWebhookSignatureHeaders> {
  const keys = secretKeyList(input.secret);
  if (typeof input.id !== 'string' || input.id === '') throw new TypeError('signWebhook needs a non-empty event id.');
  checkBodyId(input.id, input.body);
  const timestamp = input.layout === 'earlier' ? undefined : unixSeconds(input.timestamp ?? new Date());
  const content = signedContent(input.id, timestamp, input.body);
  const signatures = await Promise.all(keys.map(async (key) => `v1,${await hmacSha256Base64(key, content)}`));
  const signature = signatures.join(' ');
  return timestamp === undefined
    ? { 'X-Event-ID': input.id, 'X-Signature': signature }
    : { 'X-Event-ID': input.id, 'X-Timestamp': timestamp, 'X-Signature': signature };
}

function unixSeconds(time: number | Date): string {
  const seconds = time instanceof Date ? Math.floor(time.getTime() / 1000) : time;
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new TypeError('signWebhook needs a timestamp in whole Unix seconds (or a Date).');
  }
  return String(seconds);
}

const decoder = new TextDecoder();
const SHOWN_ID_CHARS = 80;

// Note: both layouts carry the event id at the top of the body, and verifyWebhook refuses a delivery whose X-Event-ID
// differs from it (header_mismatch). A body that is not JSON or has no id is signed as given: verifyWebhook names
// what is wrong with it (invalid_json, schema_mismatch), and such deliveries are how a receiver's refusals are tested.
function checkBodyId(id: string, body: WebhookBody): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof body === 'string' ? body : decoder.decode(bodyBytes(body)));
  } catch {
    return;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !Object.hasOwn(parsed, 'id')) return;
  const bodyId = (parsed as { id: unknown }).id;
  if (bodyId === id) return;
  throw new WebhookSignError(
    'id_mismatch',
    `signWebhook was given the id ${shown(id)}, but the body's id is ${shown(bodyId)}: X-Event-ID must equal the body's id, ` +
      "so every receiver would reject the delivery (header_mismatch). Pass the body's id as id.",
  );
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_ID_CHARS ? `${text.slice(0, SHOWN_ID_CHARS)}…` : text;
}
