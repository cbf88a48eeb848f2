import {
  validateEarlierWebhookEvent,
  validateWebhookEvent,
  webhookEventValidators,
  type WebhookSchemaError,
} from '../../generated/validators/webhook-validators.js';
import { bodyBytes, type WebhookBody } from './crypto.js';
import { WebhookVerificationError, type WebhookSchemaIssue } from './errors.js';
import type { WebhookLayout } from './types.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Parses the raw body as JSON; throws WebhookVerificationError `invalid_json` when it is not UTF-8 JSON. */
export function parseWebhookJson(rawBody: WebhookBody): unknown {
  try {
    return JSON.parse(typeof rawBody === 'string' ? rawBody : decoder.decode(bodyBytes(rawBody)));
  } catch (cause) {
    // Note: the parser's own message quotes the body, so it stays in `cause` and out of the message.
    throw new WebhookVerificationError(
      'invalid_json',
      'The body is not valid UTF-8 JSON although its signature matches; report the delivery to the sender.',
      { cause },
    );
  }
}

/** How a parsed body breaks the layout's schema (validators generated from the contract), or undefined when it fits. */
export function schemaIssues(layout: WebhookLayout, body: unknown): WebhookSchemaIssue[] | undefined {
  const validate = layout === 'later' ? validateWebhookEvent : validateEarlierWebhookEvent;
  if (validate(body)) return undefined;
  let errors = validate.errors ?? [];
  const type = layout === 'later' ? (body as { type?: unknown } | null)?.type : undefined;
  if (typeof type === 'string' && Object.hasOwn(webhookEventValidators, type)) {
    // Note: oneOf reports every branch's failure; the branch the event's own type selects tells what is wrong.
    const own = webhookEventValidators[type];
    if (own && !own(body)) errors = own.errors ?? errors;
  }
  return errors.map(toIssue);
}

function toIssue(error: WebhookSchemaError): WebhookSchemaIssue {
  const extra = error.params['additionalProperty'];
  const message = error.message ?? `fails ${error.keyword}`;
  return { instancePath: error.instancePath, message: typeof extra === 'string' ? `${message}: ${extra}` : message };
}
