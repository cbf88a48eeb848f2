// The checks one webhook delivery is judged by (their rules are in the registry), and what the stage reads from a
// delivery to match it with status changes and with its own retries. The signature is judged by the package's verifier.
import { validateWebhookBody } from '@merchant-payments/contract/internal/validation/index.js';
import { WebhookVerificationError } from '@merchant-payments/contract/internal/webhooks/errors.js';
import { parseWebhookJson } from '@merchant-payments/contract/internal/webhooks/payload.js';
import type { WebhookLayout } from '@merchant-payments/contract/internal/webhooks/types.js';
import { verifyWebhook } from '@merchant-payments/contract/internal/webhooks/verify.js';
import { curlOf } from './http.js';
import { maskedExcerpt, maskText, type Secret } from './mask.js';
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import type { Evidence, Outcome } from './results.js';

/** Largest distance between X-Timestamp and the receiver's clock the contract lets a receiver accept, in seconds. */
const TOLERANCE_SECONDS = 300;
const TIMESTAMP = /^[0-9]{1,12}$/;
const EVENT_TYPES: Record<string, ObjectKind> = {
  'payment.status_changed': 'payment',
  'payout.status_changed': 'payout',
  'appeal.status_changed': 'appeal',
};

/** What the stage reads from one delivery before judging it. */
export interface ReadDelivery {
  headers: Record<string, string>;
  raw: Uint8Array | undefined;
  /** The body parsed, or undefined when it is not JSON (or too large). */
  json: Record<string, unknown> | undefined;
  layout: WebhookLayout;
  /** The event type, when the body names one of the contract's; the report's subject. */
  subject: string;
  /** The object whose status changed and its new status (later layout only: the earlier one carries a create request). */
  object?: { kind: ObjectKind; id: string; status: string };
  /**
   * What stays the same across the attempts of one event even if its id changed: the type, the object's id and status
   * and the event's created_at (earlier layout: type, created_at and data).
   */
  retryKey?: string;
  receivedAt: number;
}

const header = (headers: Record<string, string>, name: string): string | undefined => {
  const value = headers[name.toLowerCase()]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

function parse(raw: Uint8Array | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  try {
    const json = parseWebhookJson(raw);
    return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a delivery. Its layout is the one the endpoint was registered with when known (`expected`); otherwise a
 * delivery with X-Timestamp is the later layout, and one without it the earlier layout only if its body fits that.
 */
export function readDelivery(
  delivery: { headers: Record<string, string>; body: Uint8Array | undefined; receivedAt: number },
  expected?: WebhookLayout,
): ReadDelivery {
  const { headers, body: raw, receivedAt } = delivery;
  const json = parse(raw);
  const earlierFits = json !== undefined && validateWebhookBody('earlier', json).length === 0;
  const layout: WebhookLayout =
    expected ?? (header(headers, 'X-Timestamp') !== undefined || !earlierFits ? 'later' : 'earlier');
  const type = typeof json?.type === 'string' ? json.type : undefined;
  const kind = type === undefined ? undefined : EVENT_TYPES[type];
  const read: ReadDelivery = { headers, raw, json, layout, subject: kind ? (type as string) : 'delivery', receivedAt };
  const data = json?.data && typeof json.data === 'object' ? (json.data as Record<string, unknown>) : undefined;
  const createdAt = typeof json?.created_at === 'string' ? json.created_at : '';
  if (kind && layout === 'later' && typeof data?.id === 'string' && typeof data.status === 'string') {
    read.object = { kind, id: data.id, status: data.status };
    read.retryKey = `${type}\u0000${data.id}\u0000${data.status}\u0000${createdAt}`;
  } else if (kind && data) read.retryKey = `${type}\u0000${createdAt}\u0000${JSON.stringify(data)}`;
  return read;
}

/** The signature, by verifyWebhook with the secret; the timestamp's distance is the headers check's, not this one's. */
async function signature(read: ReadDelivery, secret: string): Promise<Outcome> {
  const check = 'webhook_signature';
  if (read.raw === undefined)
    return { check, ok: false, detail: 'the body was too large to read, so its signature could not be checked' };
  const timestamp = header(read.headers, 'X-Timestamp');
  try {
    await verifyWebhook(read.raw, read.headers, secret, {
      allowEarlierLayout: read.layout === 'earlier',
      validateSchema: false,
      ...(timestamp !== undefined && TIMESTAMP.test(timestamp) ? { now: () => Number(timestamp) * 1000 } : {}),
    });
    return { check, ok: true };
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    // Note: the verifier checks these after the signature matched, so the signature itself is sound.
    if (error.reason === 'invalid_json' || error.reason === 'header_mismatch') return { check, ok: true };
    return { check, ok: false, detail: `verifyWebhook refused it (${error.reason}): ${error.message}` };
  }
}

function body(read: ReadDelivery): Outcome {
  const check = 'webhook_body_conformance';
  const fail = (detail: string): Outcome => ({ check, ok: false, detail });
  if (read.raw === undefined) return fail('the body is larger than the receiver reads');
  if (read.json === undefined) return fail('the body is not a JSON object');
  const violations = validateWebhookBody(read.layout, read.json);
  if (violations.length > 0)
    return fail(
      `${read.layout} layout: ${violations.map((violation) => `${violation.pointer || '(body)'}: ${violation.detail}`).join('; ')}`,
    );
  return { check, ok: true };
}

function headers(read: ReadDelivery): Outcome {
  const check = 'webhook_headers_conformance';
  const problems: string[] = [];
  const id = header(read.headers, 'X-Event-ID');
  const type = header(read.headers, 'X-Event-Type');
  const bodyId = read.json?.id;
  const bodyType = read.json?.type;
  if (id === undefined) problems.push('X-Event-ID is missing');
  else if (typeof bodyId === 'string' && id !== bodyId)
    problems.push(`X-Event-ID is ${id} but the body's id is ${bodyId}`);
  if (type === undefined) problems.push('X-Event-Type is missing');
  else if (typeof bodyType === 'string' && type !== bodyType)
    problems.push(`X-Event-Type is ${type} but the body's type is ${bodyType}`);
  if (read.layout === 'later') {
    const timestamp = header(read.headers, 'X-Timestamp');
    if (timestamp === undefined) problems.push('X-Timestamp is missing from a later-layout delivery');
    else if (!TIMESTAMP.test(timestamp))
      problems.push(`X-Timestamp "${timestamp.slice(0, 40)}" is not whole Unix seconds`);
    else {
      const distance = Math.round(read.receivedAt / 1000) - Number(timestamp);
      if (Math.abs(distance) > TOLERANCE_SECONDS)
        problems.push(
          `X-Timestamp is ${Math.abs(distance)} s ${distance > 0 ? 'in the past' : 'in the future'}, beyond ${TOLERANCE_SECONDS} s`,
        );
    }
  }
  const contentType = header(read.headers, 'Content-Type');
  if (!contentType || !/^application\/json\s*(;|$)/i.test(contentType))
    problems.push(`Content-Type is ${contentType ?? 'missing'}, not application/json`);
  return problems.length === 0 ? { check, ok: true } : { check, ok: false, detail: problems.join('; ') };
}

/** The checks of one delivery on its own: signature, body, headers. */
export async function judgeDelivery(read: ReadDelivery, secret: string): Promise<Outcome[]> {
  return [await signature(read, secret), body(read), headers(read)];
}

/** Replaces the webhook secret, whole or its base64 part and in any encoding, with the variable's name: a sender may echo it back. */
export function maskWebhookSecret(text: string, secret: string): string {
  return maskText(text, webhookSecrets(secret));
}

const webhookSecrets = (secret: string): Secret[] => {
  const key = secret.replace(/^whsec_/, '');
  return [
    [secret, '$WEBHOOK_SECRET'],
    ...(key.length >= 8 && key !== secret ? [[key, '$WEBHOOK_SECRET'] as const] : []),
  ];
};

/** The delivery as the report shows it: what was posted where, and what the kit answered; a curl line that posts it again. */
export function deliveryEvidence(
  delivery: { method: string; path: string; headers: Record<string, string>; body: Uint8Array | undefined },
  listenerUrl: string,
  answered: number,
  secret: string,
): Evidence {
  const text = delivery.body === undefined ? undefined : new TextDecoder().decode(delivery.body);
  const mask = (value: string) => maskWebhookSecret(value, secret);
  const headers = Object.fromEntries(
    Object.entries(delivery.headers)
      .filter(
        ([name]) =>
          ![
            'host',
            'connection',
            'content-length',
            'accept',
            'accept-encoding',
            'accept-language',
            'sec-fetch-mode',
          ].includes(name),
      )
      .map(([name, value]) => [name, mask(value)]),
  );
  const request = {
    method: delivery.method,
    url: `${listenerUrl}${delivery.path}`,
    headers,
    ...(text === undefined ? {} : { body: maskedExcerpt(text, webhookSecrets(secret), 2000) }),
  };
  return {
    request,
    response: {
      status: answered,
      contentType: 'application/json',
      bodyExcerpt: answered >= 200 && answered < 300 ? '{}' : JSON.stringify({ status: answered }),
    },
    curl: curlOf(request),
  };
}
