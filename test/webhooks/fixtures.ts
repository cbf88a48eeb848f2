// Shared test fixtures: secrets, the contract's examples, and vectors signed by the independent standardwebhooks package.
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { webhookExamples } from '../../packages/contract/generated/validators/webhook-examples.js';
import type { WebhookEventType } from '../../packages/contract/src/webhooks/index.js';

/** A secret made of the given byte repeated 32 times. */
export const secretOf = (byte: number): string => `whsec_${Buffer.alloc(32, byte).toString('base64')}`;

export const SECRET = secretOf(1);
export const OTHER_SECRET = secretOf(2);
export const ROTATED_SECRET = secretOf(3);

/** A fixed delivery time, in Unix seconds, and a clock standing at it. */
export const T0 = 1_768_471_921;
export const at = (seconds: number) => () => seconds * 1000;

/** The contract's first named example of the given layout and type. */
export function exampleEvent(type = 'payment.status_changed', layout: 'later' | 'earlier' = 'later') {
  const example = webhookExamples.layouts[layout].examples.find((candidate) => candidate.value.type === type);
  if (!example) throw new Error(`no ${layout} example of ${type} in the contract`);
  return structuredClone(example.value);
}

/** Every event type the later layout has an example of (the examples are checked against the contract's EventType). */
export const exampleTypes = [
  ...new Set(webhookExamples.layouts.later.examples.map((example) => example.value.type as WebhookEventType)),
];

/** Headers of a later-layout delivery signed by standardwebhooks (webhook-* mapped onto the contract's names). */
export function standardSigned(body: string, options: { id?: string; timestamp?: number; secret?: string } = {}) {
  const id = options.id ?? JSON.parse(body).id;
  const timestamp = options.timestamp ?? T0;
  const signature = new Webhook(options.secret ?? SECRET).sign(id, new Date(timestamp * 1000), body);
  const headers: Record<string, string> = {
    'X-Event-ID': id,
    'X-Timestamp': String(timestamp),
    'X-Signature': signature,
  };
  return headers;
}

/**
 * Headers of an earlier-layout delivery, signed here with node:crypto over `${id}.${body}` (standardwebhooks always
 * signs a timestamp, so it cannot produce this layout).
 */
export function earlierSigned(body: string, id: string, secret = SECRET) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${body}`).digest('base64');
  const headers: Record<string, string> = { 'X-Event-ID': id, 'X-Signature': `v1,${signature}` };
  return headers;
}

/** A body and the standardwebhooks-signed headers of a valid later-layout delivery at T0. */
export function delivery(type = 'payment.status_changed') {
  const event = exampleEvent(type);
  const body = JSON.stringify(event);
  const headers: Record<string, string> = { ...standardSigned(body), 'X-Event-Type': event.type };
  return { event, body, headers };
}
