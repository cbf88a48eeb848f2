// The Variant B client: X-Public-Key and X-Secret-Key, every path under /merchant/v1.
import type { paths } from '../../generated/types/variant-b.js';
import { keyPairHeaders } from './auth.js';
import { buildClient } from './create-client.js';
import { ClientConfigError } from './errors/client-config-error.js';
import type { WithOptionalIdempotencyKey } from './idempotency.js';
import type { TypedClient } from './typed-client.js';
import { parseBaseUrl, requireCredential, type ClientOptions } from './options.js';

/** The prefix every Variant B path starts with. */
export const VARIANT_B_PREFIX = '/merchant/v1';

/** Variant B's paths as the client takes them: Idempotency-Key optional. */
export type VariantBPaths = WithOptionalIdempotencyKey<paths>;

/** The Variant B client: `client.GET('/merchant/v1/payments')`, each call returning `{ data, error, response }`. */
export type VariantBClient = TypedClient<VariantBPaths>;

/** Options of createVariantBClient. */
export interface VariantBClientOptions extends ClientOptions {
  /** Sent as `X-Public-Key`. */
  publicKey: string;
  /** Sent as `X-Secret-Key`. */
  secretKey: string;
}

/** Creates a typed Variant B client; throws ClientConfigError on a missing key or a bad baseUrl (one that includes `/merchant/v1`, too). */
export function createVariantBClient(options: VariantBClientOptions): VariantBClient {
  if (typeof options !== 'object' || options === null) {
    throw new ClientConfigError(
      'options',
      'createVariantBClient needs an options object: { baseUrl, publicKey, secretKey }.',
    );
  }
  const { publicKey, secretKey, ...shared } = options;
  const pub = requireCredential('publicKey', publicKey, 'X-Public-Key');
  const secret = requireCredential('secretKey', secretKey, 'X-Secret-Key');
  refuseIncludedPrefix(parseBaseUrl(shared.baseUrl));
  return buildClient<VariantBPaths>(shared, {
    variant: 'B',
    credentials: keyPairHeaders(pub, secret),
    secrets: [pub, secret],
  });
}

// Note: every path the client is called with starts with the prefix, so a baseUrl holding it (or a path below it,
// such as `/merchant/v1/payments`) would send `/merchant/v1/merchant/v1/…`, which no server answers.
function refuseIncludedPrefix(baseUrl: string): void {
  const url = new URL(baseUrl);
  const at = url.pathname.search(/\/merchant\/v1(?:\/|$)/i);
  if (at === -1) return;
  const suggestion = url.origin + url.pathname.slice(0, at);
  throw new ClientConfigError(
    'baseUrl',
    `baseUrl must not include ${VARIANT_B_PREFIX}: every Variant B path already starts with it ` +
      `(client.GET('${VARIANT_B_PREFIX}/payments')), so it would be sent twice. Drop the prefix: pass "${suggestion}".`,
  );
}
