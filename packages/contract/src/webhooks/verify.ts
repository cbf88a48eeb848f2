import {
  hmacSha256Base64,
  secretKeyList,
  timingSafeEqualText,
  type KeyBytes,
  type SignedParts,
  type WebhookBody,
} from './crypto.js';
import { WebhookVerificationError } from './errors.js';
import { getHeader, MAX_SIGNATURE_LENGTH, WEBHOOK_HEADERS, type WebhookHeaders } from './headers.js';
import { parseWebhookJson, schemaIssues } from './payload.js';
import { signedContent } from './sign.js';
import type { EarlierWebhookEvent, VerifiedWebhookEvent, WebhookEvent, WebhookLayout } from './types.js';

/** One `whsec_…` secret, or several while a secret is being rotated. */
export type WebhookSecrets = string | readonly string[];

/** Options of verifyWebhook. */
export interface VerifyWebhookOptions {
  /** Largest accepted distance, in seconds, between X-Timestamp and the clock, in either direction (default 300). */
  toleranceSeconds?: number;
  /** The clock, as milliseconds since the epoch or a Date (default `Date.now`). */
  now?: () => number | Date;
  /** Also accept the earlier layout, which has no X-Timestamp and so no replay protection: de-duplicate on X-Event-ID. */
  allowEarlierLayout?: boolean;
  /**
   * Validate the parsed body against the contract's schema (default true). Turn it off only where the body is
   * validated elsewhere: the event's type is then what the sender claims, unchecked.
   */
  validateSchema?: boolean;
}

/** A verified delivery: the event, its layout and its X-Event-ID. */
export interface VerifiedWebhook<AllowEarlier extends boolean = boolean> {
  event: VerifiedWebhookEvent<AllowEarlier>;
  layout: WebhookLayout;
  id: string;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const TIMESTAMP = /^[0-9]{1,12}$/;
const SIGNATURE_ENTRY = /^(v[0-9]+[a-z]*),(\S+)$/;
const V1_SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/**
 * Verifies a delivery's signature and timestamp, parses its JSON and validates it against the contract's schema.
 * Pass the raw body exactly as received. Throws WebhookVerificationError, or TypeError for a malformed secret or option.
 */
export function verifyWebhook(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secrets: WebhookSecrets,
  options: VerifyWebhookOptions & { allowEarlierLayout: true },
): Promise<WebhookEvent | EarlierWebhookEvent>;
/** Verifies a later-layout delivery and returns its typed event. */
export function verifyWebhook(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secrets: WebhookSecrets,
  options?: VerifyWebhookOptions & { allowEarlierLayout?: false },
): Promise<WebhookEvent>;
/** Verifies a delivery of either layout when `allowEarlierLayout` is not known statically. */
export function verifyWebhook(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secrets: WebhookSecrets,
  options?: VerifyWebhookOptions,
): Promise<WebhookEvent | EarlierWebhookEvent>;
export async function verifyWebhook(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secrets: WebhookSecrets,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent | EarlierWebhookEvent> {
  return (await verifyWebhookDelivery(rawBody, headers, secrets, options)).event;
}

/** Like verifyWebhook, but also says which layout the delivery used and its event id (used by the adapters). */
export async function verifyWebhookDelivery(
  rawBody: WebhookBody,
  headers: WebhookHeaders,
  secrets: WebhookSecrets,
  options: VerifyWebhookOptions = {},
): Promise<VerifiedWebhook> {
  const keys = secretKeyList(secrets);
  const tolerance = toleranceOf(options);
  const id = requireHeader(headers, WEBHOOK_HEADERS.id);
  const timestamp = getHeader(headers, WEBHOOK_HEADERS.timestamp);
  if (timestamp === undefined && !options.allowEarlierLayout) {
    throw missing(
      WEBHOOK_HEADERS.timestamp,
      'Deliveries of the later layout always carry it. If this sender uses the earlier layout (no X-Timestamp), ' +
        'opt in with allowEarlierLayout: true and de-duplicate on X-Event-ID, since such deliveries can be replayed.',
    );
  }
  if (timestamp !== undefined && !TIMESTAMP.test(timestamp)) {
    throw new WebhookVerificationError(
      'malformed_timestamp',
      'The X-Timestamp header is not whole Unix seconds; check that nothing between the sender and this receiver rewrites it.',
      { header: WEBHOOK_HEADERS.timestamp },
    );
  }
  const signatures = parseSignatures(requireHeader(headers, WEBHOOK_HEADERS.signature));
  if (timestamp !== undefined) checkTimestamp(Number(timestamp), tolerance, options.now);

  const content = signedContent(id, timestamp, rawBody);
  if (!(await anyMatches(content, keys, signatures))) {
    throw new WebhookVerificationError(
      'no_matching_signature',
      `None of the ${signatures.length} v1 signature(s) in X-Signature matches any of the ${keys.length} configured secret(s). ` +
        'Check that the secret is the one for this endpoint and that the body is passed exactly as received ' +
        '(raw bytes, not re-serialised JSON).',
      { header: WEBHOOK_HEADERS.signature },
    );
  }

  const layout: WebhookLayout = timestamp === undefined ? 'earlier' : 'later';
  const body = parseWebhookJson(rawBody);
  checkHeadersMatchBody(headers, id, body);
  const issues = options.validateSchema === false ? undefined : schemaIssues(layout, body);
  if (issues) {
    const schema = layout === 'later' ? 'WebhookEvent' : 'EarlierWebhookEvent';
    const listed = issues
      .slice(0, 3)
      .map((issue) => `${issue.instancePath || '(body)'} ${issue.message}`)
      .join('; ');
    throw new WebhookVerificationError(
      'schema_mismatch',
      `The body does not match the contract's ${schema} schema: ${listed}. ` +
        'Check that the sender and this receiver use the same contract version.',
      { errors: issues },
    );
  }
  return { event: body as WebhookEvent | EarlierWebhookEvent, layout, id };
}

function toleranceOf(options: VerifyWebhookOptions): number {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    throw new TypeError('toleranceSeconds must be a finite number of seconds, 0 or more.');
  }
  return tolerance;
}

function missing(header: string, advice: string): WebhookVerificationError {
  return new WebhookVerificationError('missing_header', `The ${header} header is missing or empty. ${advice}`, {
    header,
  });
}

function requireHeader(headers: WebhookHeaders, name: string): string {
  const value = getHeader(headers, name);
  if (value === undefined) {
    throw missing(name, 'Check that a proxy or framework in front of this receiver forwards it unchanged.');
  }
  return value;
}

function parseSignatures(header: string): string[] {
  if (header.length > MAX_SIGNATURE_LENGTH) {
    throw malformedSignature(`longer than the ${MAX_SIGNATURE_LENGTH} characters the contract allows`);
  }
  const v1: string[] = [];
  // Note: a trailing comma is dropped because fetch joins repeated headers with ", ".
  for (const entry of header.split(/\s+/).map((part) => part.replace(/,$/, ''))) {
    const match = SIGNATURE_ENTRY.exec(entry);
    const [version, value] = [match?.[1], match?.[2] ?? ''];
    if (!match || (version === 'v1' && !V1_SIGNATURE.test(value))) {
      throw malformedSignature('expected space-separated "v1,<base64 HMAC-SHA256>" values');
    }
    // Note: other versions (e.g. asymmetric "v1a") are skipped, as Standard Webhooks prescribes.
    if (version === 'v1') v1.push(value);
  }
  return v1;
}

function malformedSignature(problem: string): WebhookVerificationError {
  return new WebhookVerificationError(
    'malformed_signature',
    `The X-Signature header is malformed: ${problem}. Check that nothing between the sender and this receiver rewrites it.`,
    { header: WEBHOOK_HEADERS.signature },
  );
}

function checkTimestamp(timestamp: number, tolerance: number, now: VerifyWebhookOptions['now']): void {
  const clock = now?.() ?? Date.now();
  const nowSeconds = Math.floor((clock instanceof Date ? clock.getTime() : clock) / 1000);
  const age = nowSeconds - timestamp;
  if (age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `X-Timestamp is ${age} s in the past, beyond the ${tolerance} s tolerance. ` +
        "Check this receiver's clock (NTP); a genuinely old delivery may be a replay.",
      { header: WEBHOOK_HEADERS.timestamp },
    );
  }
  if (-age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_in_future',
      `X-Timestamp is ${-age} s in the future, beyond the ${tolerance} s tolerance. Check this receiver's clock (NTP).`,
      { header: WEBHOOK_HEADERS.timestamp },
    );
  }
}

async function anyMatches(content: SignedParts, keys: KeyBytes[], signatures: string[]): Promise<boolean> {
  if (signatures.length === 0) return false;
  for (const key of keys) {
    // Note: node:crypto answers synchronously; awaiting only a real promise saves a turn of the event loop per key.
    const digest = hmacSha256Base64(key, content);
    const expected = typeof digest === 'string' ? digest : await digest;
    if (signatures.some((signature) => timingSafeEqualText(expected, signature))) return true;
  }
  return false;
}

function checkHeadersMatchBody(headers: WebhookHeaders, id: string, body: unknown): void {
  // Note: X-Event-ID is signed but X-Event-Type is not, and a later-layout signature over `${id}.${timestamp}.${body}`
  // also verifies as the earlier layout with X-Event-ID set to `${id}.${timestamp}`: both must equal the signed body.
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof fields['id'] === 'string' && fields['id'] !== id) {
    throw new WebhookVerificationError(
      'header_mismatch',
      "The X-Event-ID header differs from the body's id, which the contract requires to be equal. The sender never " +
        'signs such a pair: do not process this delivery, which may be forged or replayed, and report it to the sender.',
      { header: WEBHOOK_HEADERS.id },
    );
  }
  const type = getHeader(headers, WEBHOOK_HEADERS.type);
  if (typeof fields['type'] === 'string' && type !== undefined && type !== fields['type']) {
    throw new WebhookVerificationError(
      'header_mismatch',
      "The X-Event-Type header differs from the body's type, which the contract requires to be equal. " +
        'Check that nothing between the sender and this receiver rewrites X-Event-Type (it is not signed).',
      { header: WEBHOOK_HEADERS.type },
    );
  }
}
