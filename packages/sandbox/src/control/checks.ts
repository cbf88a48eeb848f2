// What the control document's schemas cannot say about a request that fits them, checked after the generated
// validators (control/handler.ts): a webhook URL must have a host to deliver to, and must not carry a credential; and,
// before an endpoint is registered, its host must pass the egress rule.
import { CLASS_WORDS, type EgressRule } from '../delivery/egress.js';

/** True when an http(s) URL holds a user name or password: an "@" before its path, as the document's pattern reads it. */
export const hasUserInfo = (url: string): boolean => /^https?:\/\/[^/?#]*@/.test(url);

/**
 * Why a WebhookEndpointUrl cannot be used, or undefined: `format: uri` lets `http://` (no host) through, and the
 * pattern that refuses a user name or password can only name itself.
 */
export function webhookUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  // Note: a credential in the URL would travel with every delivery and could be shown back in listings and errors.
  if (hasUserInfo(value))
    return "Must not hold a user name or password; pass a credential through the receiver's own configuration instead.";
  const url = URL.canParse(value) ? new URL(value) : undefined;
  return url && /^https?:$/.test(url.protocol) && url.hostname !== ''
    ? undefined
    : 'Must be an absolute http or https URL with a host.';
}

/**
 * Why the egress rule refuses the host of a webhook URL, or undefined when it allows it. In `issued` mode the host is
 * resolved and every address judged; in `open` mode an IP address or a metadata service's name is judged as it is, and a
 * name is judged by each delivery's connection. The detail names the class of address, never the address, and never
 * echoes a DNS error.
 */
export async function webhookHostProblem(rule: EgressRule, url: string): Promise<string | undefined> {
  const verdict = await rule.checkHost(new URL(url).hostname, { resolve: rule.mode === 'issued' });
  if (verdict.allowed) return undefined;
  const where = `(egress rule of --auth ${rule.mode}); its operator can allow it with --allow-webhook-host.`;
  if (verdict.reason === 'unresolvable')
    return `The host of url resolves to no address, so this sandbox cannot check where it would deliver (egress rule of --auth ${rule.mode}); register a host that resolves.`;
  const what = CLASS_WORDS[verdict.addressClass];
  if (verdict.by === 'name')
    return `The host of url names a cloud metadata service, which this sandbox does not deliver to ${where}`;
  return `The host of url ${verdict.by === 'address' ? 'is' : 'resolves to'} ${what}, which this sandbox does not deliver to ${where}`;
}
