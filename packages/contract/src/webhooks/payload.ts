import {
  validateEarlierWebhookEvent,
  validateWebhookEvent,
  webhookEventValidators,
  type WebhookSchemaError,
} from '../../generated/validators/webhook-validators.js';
import secureJson from 'secure-json-parse';
import { bodyBytes, type WebhookBody } from './crypto.js';
import { WebhookVerificationError, type WebhookSchemaIssue } from './errors.js';
import type { WebhookLayout } from './types.js';

// Note: ignoreBOM keeps a leading BOM in the text, so bytes and strings reach the same check below.
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const BOM = 0xfeff;

/**
 * Parses the raw body as JSON; throws WebhookVerificationError `invalid_json` when it is not UTF-8 JSON, starts with a
 * byte order mark, or has a `__proto__` or `constructor.prototype` key that could poison a merchant's objects.
 */
export function parseWebhookJson(rawBody: WebhookBody): unknown {
  let text: string;
  try {
    text = typeof rawBody === 'string' ? rawBody : decoder.decode(bodyBytes(rawBody));
  } catch (cause) {
    throw invalidJson('The body is not valid UTF-8 although its signature matches', cause);
  }
  // Note: RFC 8259 forbids a BOM in networked JSON; refusing it keeps string and byte bodies alike.
  if (text.charCodeAt(0) === BOM)
    throw invalidJson('The body starts with a byte order mark, which JSON sent over a network must not');
  try {
    return secureJson.parse(text, null, { protoAction: 'error', constructorAction: 'error' });
  } catch (cause) {
    // Note: the parser's own message may quote the body, so it stays in `cause` and out of the message.
    const poisoned = cause instanceof SyntaxError && cause.message.includes('forbidden prototype property');
    throw invalidJson(
      poisoned
        ? 'The body has a "__proto__" or "constructor.prototype" key, refused because it could change the prototype of objects it is copied into'
        : 'The body is not valid JSON although its signature matches',
      cause,
    );
  }
}

function invalidJson(why: string, cause?: unknown): WebhookVerificationError {
  return new WebhookVerificationError(
    'invalid_json',
    `${why}; report the delivery to the sender.`,
    cause === undefined ? {} : { cause },
  );
}

/** The errors of the layout's validator for a parsed body (its event type's own, for the later layout), or undefined when it fits. */
export function schemaErrors(layout: WebhookLayout, body: unknown): WebhookSchemaError[] | undefined {
  const validate = layout === 'later' ? validateWebhookEvent : validateEarlierWebhookEvent;
  if (validate(body)) return undefined;
  let errors = validate.errors ?? [];
  const type = layout === 'later' ? (body as { type?: unknown } | null)?.type : undefined;
  if (typeof type === 'string' && Object.hasOwn(webhookEventValidators, type)) {
    // Note: oneOf reports every branch's failure; the branch the event's own type selects tells what is wrong.
    const own = webhookEventValidators[type];
    if (own && !own(body)) errors = own.errors ?? errors;
  }
  return errors;
}

/** How a parsed body breaks the layout's schema (validators generated from the contract), or undefined when it fits. */
export function schemaIssues(layout: WebhookLayout, body: unknown): WebhookSchemaIssue[] | undefined {
  return schemaErrors(layout, body)?.map(toIssue);
}

function toIssue(error: WebhookSchemaError): WebhookSchemaIssue {
  const extra = error.params['additionalProperty'];
  const message = error.message ?? `fails ${error.keyword}`;
  return { instancePath: error.instancePath, message: typeof extra === 'string' ? `${message}: ${extra}` : message };
}
