// What the control document's schemas cannot say about a request that fits them, checked after the generated
// validators (control/handler.ts): a webhook URL must have a host to deliver to, and must not carry a credential.

/** True when an http(s) URL holds a user name or password: an "@" before its path, as the document's pattern reads it. */
export const hasUserInfo = (url: string): boolean => /^https?:\/\/[^/?#]*@/.test(url);

/**
 * Why a WebhookEndpointUrl cannot be used, or undefined: `format: uri` lets `http://` (no host) through, and the
 * pattern that refuses a user name or password can only name itself.
 */
export function webhookUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Note: a credential in the URL would travel with every delivery and could be shown back in listings and errors.
  if (hasUserInfo(value)) return "Must not hold a user name or password; pass a credential through the receiver's own configuration instead.";
  const url = URL.canParse(value) ? new URL(value) : undefined;
  return url && /^https?:$/.test(url.protocol) && url.hostname !== '' ? undefined : 'Must be an absolute http or https URL with a host.';
}
