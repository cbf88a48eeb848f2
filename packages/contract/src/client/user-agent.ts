// The User-Agent the clients send, and where a client may set it at all.
import { PACKAGE_VERSION } from '../../generated/version.js';

/** Sent as User-Agent unless the caller passes `userAgent`. */
export const DEFAULT_USER_AGENT = `merchant-payments-contract/${PACKAGE_VERSION}`;

// Note: browsers treat User-Agent as theirs (Chrome drops it silently, older engines throw), so the
// header is set only in server runtimes; Node, Bun and Deno all define process.versions.node.
/** True where a fetch request may carry its own User-Agent header. */
export function canSetUserAgent(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof proc?.versions?.node === 'string';
}
