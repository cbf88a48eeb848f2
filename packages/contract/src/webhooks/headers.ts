/** Header names of the webhook, spelled as in the contract. */
export const WEBHOOK_HEADERS = {
  id: 'X-Event-ID',
  timestamp: 'X-Timestamp',
  signature: 'X-Signature',
  type: 'X-Event-Type',
  userAgent: 'User-Agent',
} as const;

/**
 * Longest X-Signature the contract allows (its schema's maxLength). Longer headers are refused before any hashing.
 * At 48 characters a v1 entry, it holds at most 21 signatures: plenty for a rotation, and a bound on the work.
 */
export const MAX_SIGNATURE_LENGTH = 1024;

/** Request headers as receivers get them: a fetch `Headers`, Node's `IncomingHttpHeaders`, or a plain record. */
export type WebhookHeaders =
  { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Reads a header by name, ignoring case; several values are joined with ", " as fetch does; empty means absent. */
export function getHeader(headers: WebhookHeaders, name: string): string | undefined {
  const value = isHeadersLike(headers) ? headers.get(name) : fromRecord(headers, name.toLowerCase());
  const joined = typeof value === 'string' ? value : value?.join(', ');
  return joined === undefined || joined.trim() === '' ? undefined : joined.trim();
}

function isHeadersLike(headers: WebhookHeaders): headers is { get(name: string): string | null } {
  return typeof headers.get === 'function';
}

function fromRecord(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  lowerName: string,
): string | readonly string[] | undefined | null {
  // Note: Node lower-cases incoming names, so the direct lookup is the common case; records built by hand may not.
  if (Object.hasOwn(headers, lowerName)) return headers[lowerName];
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === lowerName);
  return key === undefined ? undefined : headers[key];
}
