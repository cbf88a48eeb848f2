// Public entry of `./webhooks`: verify, sign, receive and test-send the `onStatusChange` webhook.
export { createMemoryDedupe, type MemoryDedupeOptions, type WebhookDedupe } from './adapters/dedupe.js';
export { createFetchWebhookHandler, type FetchWebhookHandler } from './adapters/fetch.js';
export type { WebhookHandlerContext, WebhookHandlerOptions } from './adapters/handle.js';
export { createNodeWebhookHandler, type NodeWebhookHandler } from './adapters/node.js';
export {
  createPostgresDedupe,
  type PostgresDedupeOptions,
  type PostgresQueryable,
} from './adapters/postgres-dedupe.js';
export { applyServerTimeouts, DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from '../shared/server-timeouts.js';
export type { WebhookBody } from './crypto.js';
export {
  WEBHOOK_VERIFICATION_REASONS,
  WebhookVerificationError,
  type WebhookSchemaIssue,
  type WebhookVerificationReason,
} from './errors.js';
export { WEBHOOK_HEADERS, type WebhookHeaders } from './headers.js';
export { generateWebhookSecret } from './secret.js';
export { sendWebhookExample, type SendWebhookExampleOptions, type SendWebhookExampleResult } from './send.js';
export { WebhookSendError, type WebhookSendReason } from './send-error.js';
export { WebhookSignError, type WebhookSignReason } from './sign-error.js';
export {
  signWebhook,
  type EarlierWebhookSignatureHeaders,
  type SignWebhookInput,
  type WebhookSignatureHeaders,
} from './sign.js';
export type {
  AppealStatusChangedEvent,
  EarlierWebhookEvent,
  PaymentStatusChangedEvent,
  PayoutStatusChangedEvent,
  VerifiedWebhookEvent,
  WebhookEvent,
  WebhookEventData,
  WebhookEventOf,
  WebhookEventType,
  WebhookLayout,
} from './types.js';
export { verifyWebhook, type VerifyWebhookOptions, type WebhookSecrets } from './verify.js';
