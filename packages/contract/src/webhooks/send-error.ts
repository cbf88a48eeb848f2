// Thrown by sendWebhookExample when the receiver's answer could not be read in full and safely.

/** Why a test delivery failed: no answer in time, an answer over the size cap, a redirect, or no connection. */
export type WebhookSendReason = 'timeout' | 'response_too_large' | 'redirect' | 'network';

/** Details of a WebhookSendError beyond its reason and message. */
export interface WebhookSendErrorDetails {
  /** For `redirect`: where the receiver pointed, without credentials or query. */
  location?: string;
  cause?: unknown;
}

/** Thrown by sendWebhookExample when the delivery failed before a complete answer arrived; never carries the secret. */
export class WebhookSendError extends Error {
  override readonly name = 'WebhookSendError';
  /** Machine-readable reason. */
  readonly reason: WebhookSendReason;
  /** For `redirect`: where the receiver pointed. */
  readonly location?: string;

  constructor(reason: WebhookSendReason, message: string, details: WebhookSendErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.reason = reason;
    if (details.location !== undefined) this.location = details.location;
  }
}
