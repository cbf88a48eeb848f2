// Thrown by signWebhook when what it is asked to sign could never be verified.

/** Why signWebhook refused: `id_mismatch`, the body's `id` is not the event id given. */
export type WebhookSignReason = 'id_mismatch';

/** Thrown by signWebhook instead of signing a delivery every receiver would reject; never carries the secret. */
export class WebhookSignError extends Error {
  override readonly name = 'WebhookSignError';
  /** Machine-readable reason. */
  readonly reason: WebhookSignReason;

  constructor(reason: WebhookSignReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
