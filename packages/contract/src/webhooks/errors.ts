/** Every reason a delivery can be rejected for; the values are stable and safe to branch on, log and count. */
export const WEBHOOK_VERIFICATION_REASONS = [
  'missing_header',
  'malformed_timestamp',
  'malformed_signature',
  'no_matching_signature',
  'timestamp_too_old',
  'timestamp_in_future',
  'invalid_json',
  'schema_mismatch',
  'header_mismatch',
] as const;

/** Why a delivery was rejected: one of WEBHOOK_VERIFICATION_REASONS. */
export type WebhookVerificationReason = (typeof WEBHOOK_VERIFICATION_REASONS)[number];

/** One way a body breaks the contract's schema: where (a JSON pointer into the body) and what. */
export interface WebhookSchemaIssue {
  instancePath: string;
  message: string;
}

/** Details of a WebhookVerificationError beyond its reason and message. */
export interface WebhookVerificationDetails {
  header?: string;
  errors?: readonly WebhookSchemaIssue[];
  cause?: unknown;
}

/** Thrown by verifyWebhook when a delivery must not be trusted or processed; never carries secrets or signatures. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  /** Machine-readable reason. */
  readonly reason: WebhookVerificationReason;
  /** The header the failure is about, when there is one. */
  readonly header?: string;
  /** For `schema_mismatch`: where and how the body breaks the schema. */
  readonly errors?: readonly WebhookSchemaIssue[];

  constructor(reason: WebhookVerificationReason, message: string, details: WebhookVerificationDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    if (details.header !== undefined) this.header = details.header;
    if (details.errors !== undefined) this.errors = details.errors;
  }
}
