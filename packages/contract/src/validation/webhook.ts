// Checks a webhook body against its layout's schema, with the same violations as requests and responses.
import { schemaErrors } from '../webhooks/payload.js';
import type { WebhookLayout } from '../webhooks/types.js';
import { describeErrors } from './describe.js';
import type { Violation } from './types.js';

/** Every way (as far as the compiled webhook validators tell) a body breaks the layout's schema; empty when it fits. */
export function validateWebhookBody(layout: WebhookLayout, body: unknown): Violation[] {
  return describeErrors(schemaErrors(layout, body), { in: 'body', pointer: '' });
}
