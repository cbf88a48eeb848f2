// The egress rule of tenants' webhook endpoints: which addresses the sandbox may POST to. Each address a host resolves
// to is put in a class by ipaddr.js (an IPv4-mapped IPv6 address as the IPv4 one), and each mode refuses some classes:
// `issued` (a hosted sandbox) delivers to public unicast addresses only, `open` (local use, CI) to loopback and private
// ones too. The operator's allow list lets more through. A host passes when every address it resolves to does, since
// DNS may answer with another of them next time.
import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { EgressRefusedError, type AddressClass } from './egress-refused.js';

// Note: the classes are declared beside the error that names one, so that it needs nothing from this module.
export type { AddressClass };

/** Who the rule serves: `open` (any credential is a tenant: local use and CI) or `issued` (a hosted sandbox). */
export type EgressMode = 'open' | 'issued';

/** The classes each mode refuses (`metadata` also covers the metadata services' host names). */
export const REFUSED_CLASSES: Readonly<Record<EgressMode, ReadonlySet<AddressClass>>> = {
  issued: new Set<AddressClass>([
    'loopback',
    'private',
    'link_local',
    'metadata',
    'carrier_grade_nat',
    'unspecified',
    'broadcast',
    'multicast',
    'reserved',
    'documentation',
  ]),
  open: new Set<AddressClass>(['link_local', 'metadata', 'unspecified', 'broadcast', 'multicast']),
};

/** How each class is named in a refusal's detail. */
export const CLASS_WORDS: Readonly<Record<AddressClass, string>> = {
  public: 'a public address',
  loopback: 'a loopback address',
  private: 'a private address',
  link_local: 'a link-local address',
  metadata: 'a cloud metadata address',
  carrier_grade_nat: 'a carrier-grade NAT address',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  documentation: 'a documentation address',
};

/** The cloud metadata services' addresses (AWS, GCP and Azure; AWS over IPv6; Alibaba Cloud). */
export const METADATA_ADDRESSES: readonly string[] = ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'];
/** The cloud metadata services' host names, refused without being looked up. */
export const METADATA_NAMES: readonly string[] = ['metadata.google.internal', 'metadata'];

// Note: ipaddr.js counts the documentation ranges (RFC 5737, RFC 3849, RFC 9637) among its `reserved` ones; the rule
// names them apart, as an operator reading a refusal looks for them by that name.
const DOCUMENTATION: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][] = [
  '192.0.2.0/24',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '2001:db8::/32',
  '3fff::/20',
].map((cidr) => ipaddr.parseCIDR(cidr));
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
const METADATA = new Set(METADATA_ADDRESSES.map((address) => ipaddr.process(address).toNormalizedString()));

const V4_CLASSES: Readonly<Record<string, AddressClass>> = {
  unicast: 'public',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link_local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier_grade_nat',
  private: 'private',
};
const V6_CLASSES: Readonly<Record<string, AddressClass>> = {
  unicast: 'public',
  unspecified: 'unspecified',
  linkLocal: 'link_local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'private',
};

/** True when `text` is an IPv4 or IPv6 address written in full (no `127.1`), without brackets. */
export const isAddress = (text: string): boolean => isIP(text) !== 0;

/**
 * The class of an IP address (`10.0.0.1`, `::1`, `::ffff:127.0.0.1`); throws a TypeError for anything else. Anything
 * that is neither public unicast nor one of the named classes is `reserved`: IANA's special ranges, and IPv6 outside
 * 2000::/3.
 */
export function classifyAddress(address: string): AddressClass {
  if (!isAddress(address)) throw new TypeError('Not an IP address.');
  // Note: process() turns an IPv4-mapped IPv6 address (::ffff:127.0.0.1) into the IPv4 one, so it is judged as that.
  let parsed = ipaddr.process(address);
  if (METADATA.has(parsed.toNormalizedString())) return 'metadata';
  if (parsed.kind() === 'ipv6' && parsed.match(NAT64_WELL_KNOWN)) {
    // Note: a NAT64 gateway connects 64:ff9b::a.b.c.d to a.b.c.d, so the embedded IPv4 address is the one judged.
    parsed = ipaddr.fromByteArray(parsed.toByteArray().slice(12));
    if (METADATA.has(parsed.toNormalizedString())) return 'metadata';
  }
  if (DOCUMENTATION.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits)))
    return 'documentation';
  if (parsed.kind() === 'ipv4') return V4_CLASSES[parsed.range()] ?? 'reserved';
  const named = V6_CLASSES[parsed.range()] ?? 'reserved';
  return named === 'public' && !parsed.match(GLOBAL_UNICAST_V6) ? 'reserved' : named;
}

/** An entry of the allow list, parsed: a host name (lower case), or a range of addresses (an IP is a range of one). */
export type AllowEntry = { name: string } | { range: [ipaddr.IPv4 | ipaddr.IPv6, number] };

const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** A host as the rule compares it: lower case, without IPv6 brackets or a trailing dot. */
export function normalHost(host: string): string {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  return bare.toLowerCase().replace(/\.$/, '');
}

/** Parses one allow-list entry (`hooks.example.com`, `10.1.2.3`, `10.0.0.0/8`, `fd00::/8`); throws a TypeError naming it. */
export function parseAllowEntry(entry: string): AllowEntry {
  const text = normalHost(entry.trim());
  const slash = text.indexOf('/');
  if (slash > 0 && isAddress(text.slice(0, slash)) && /^\d{1,3}$/.test(text.slice(slash + 1))) {
    try {
      const [range, bits] = ipaddr.parseCIDR(text);
      // Note: an IPv4-mapped range (::ffff:10.0.0.0/104) is the IPv4 one, as the addresses it is matched against are.
      if (range.kind() === 'ipv6' && (range as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
        return { range: [(range as ipaddr.IPv6).toIPv4Address(), bits - 96] };
      return { range: [range, bits] };
    } catch {
      // Note: falls through to the TypeError below (a prefix longer than the address).
    }
  } else if (isAddress(text)) {
    const address = ipaddr.process(text);
    return { range: [address, address.kind() === 'ipv4' ? 32 : 128] };
  } else if (HOST_NAME.test(text) && !/^[\d.]+$/.test(text)) {
    return { name: text };
  }
  throw new TypeError(
    `allowWebhookHosts: "${entry}" is neither a host name, an IP address nor a CIDR range (such as 10.0.0.0/8).`,
  );
}

/** What the rule says of a host: allowed, refused for an address of a class, or refused because it resolves to nothing. */
export type HostVerdict =
  | { allowed: true }
  | { allowed: false; reason: 'forbidden'; addressClass: AddressClass; by: 'name' | 'address' | 'resolved' }
  | { allowed: false; reason: 'unresolvable' };

/** Resolves a host name to its addresses (the `lookup` option). */
export type Resolve = (hostname: string) => Promise<string[]>;

/** The longest the rule waits for a host to resolve before it takes it as unresolvable. */
export const LOOKUP_TIMEOUT_MS = 5_000;

/** The system's resolver (getaddrinfo, so /etc/hosts counts): every address of the name. */
export const systemResolve: Resolve = async (hostname) =>
  (await dns.lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** net.connect's `lookup` option. */
export type ConnectLookup = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** The egress rule of one sandbox. */
export interface EgressRule {
  readonly mode: EgressMode;
  /**
   * Judges a URL's host (`URL.hostname`). An IP address, an allowed name and a metadata service's name are judged as
   * they are; another name is resolved when `resolve` is true, else allowed (its addresses are judged when a
   * connection resolves them).
   */
  checkHost(host: string, options: { resolve: boolean }): Promise<HostVerdict>;
  /** Judges the addresses `host` resolved to: refused when any of them is, or when there is none. */
  judge(host: string, addresses: readonly string[]): HostVerdict;
  /**
   * A `lookup` for net.connect: resolves with the rule's resolver and hands the connection the addresses it judged, so
   * that a connection goes only where the rule allowed (an EgressRefusedError otherwise).
   */
  readonly connectLookup: ConnectLookup;
}

/** The egress rule of `mode`, with the operator's allow list and a resolver (default: the system's). */
export function createEgressRule(settings: {
  mode: EgressMode;
  allow?: readonly string[];
  resolve?: Resolve;
}): EgressRule {
  const { mode } = settings;
  const entries = (settings.allow ?? []).map(parseAllowEntry);
  const names = new Set(entries.flatMap((entry) => ('name' in entry ? [entry.name] : [])));
  const ranges = entries.flatMap((entry) => ('range' in entry ? [entry.range] : []));
  const resolver = settings.resolve ?? systemResolve;
  const refused = REFUSED_CLASSES[mode];

  const allowedAddress = (address: string) => {
    const parsed = ipaddr.process(address);
    return ranges.some(([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits));
  };
  const refusal = (address: string): AddressClass | undefined => {
    const addressClass = classifyAddress(address);
    return refused.has(addressClass) && !allowedAddress(address) ? addressClass : undefined;
  };
  const judge = (host: string, addresses: readonly string[]): HostVerdict => {
    if (names.has(normalHost(host))) return { allowed: true };
    const valid = addresses.filter(isAddress);
    if (valid.length === 0) return { allowed: false, reason: 'unresolvable' };
    for (const address of valid) {
      const addressClass = refusal(address);
      if (addressClass) return { allowed: false, reason: 'forbidden', addressClass, by: 'resolved' };
    }
    return { allowed: true };
  };
  const resolve = (hostname: string) => withTimeout(resolver(hostname), LOOKUP_TIMEOUT_MS);

  return {
    mode,
    judge,
    async checkHost(host, { resolve: resolving }) {
      const name = normalHost(host);
      if (names.has(name)) return { allowed: true };
      if (isAddress(name)) {
        const addressClass = refusal(name);
        return addressClass ? { allowed: false, reason: 'forbidden', addressClass, by: 'address' } : { allowed: true };
      }
      if (METADATA_NAMES.includes(name))
        return { allowed: false, reason: 'forbidden', addressClass: 'metadata', by: 'name' };
      if (!resolving) return { allowed: true };
      let addresses: string[];
      try {
        addresses = await resolve(name);
      } catch {
        return { allowed: false, reason: 'unresolvable' };
      }
      return judge(name, Array.isArray(addresses) ? addresses : []);
    },
    connectLookup(hostname, options, callback) {
      const name = normalHost(hostname);
      const checked = async (): Promise<string[]> => {
        if (METADATA_NAMES.includes(name) && !names.has(name)) throw new EgressRefusedError('metadata');
        const addresses = (await resolve(name)).filter(isAddress);
        const verdict = judge(name, addresses);
        if (verdict.allowed) return addresses;
        if (verdict.reason === 'forbidden') throw new EgressRefusedError(verdict.addressClass);
        throw notFound(hostname);
      };
      checked().then(
        (addresses) => {
          const family = options.family === 4 || options.family === 6 ? options.family : undefined;
          const usable = addresses
            .map((address) => ({ address, family: isIP(address) }))
            .filter((entry) => family === undefined || entry.family === family);
          if (usable.length === 0) return callback(notFound(hostname), '');
          if (options.all) return callback(null, usable);
          return callback(null, usable[0]!.address, usable[0]!.family);
        },
        (error: NodeJS.ErrnoException) => callback(error, ''),
      );
    },
  };
}

function notFound(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
}

/** `promise`, or a rejection once `ms` have passed. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error(`The lookup took longer than ${ms} ms`), { code: 'ETIMEOUT' })),
      ms,
    );
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
