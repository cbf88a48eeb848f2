// The Variant B client: X-Public-Key and X-Secret-Key, every path under /merchant/v1.
import type { paths } from '../../generated/types/variant-b.js';
import { keyPairHeaders } from './auth.js';
import { buildClient } from './create-client.js';
import { ClientConfigError } from './errors/client-config-error.js';
import type { WithOptionalIdempotencyKey } from './idempotency.js';
import type { TypedClient } from './typed-client.js';
import { requireCredential, type ClientOptions } from './options.js';

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

/** Creates a typed Variant B client; throws ClientConfigError on a missing key or a bad baseUrl. */
export function createVariantBClient(options: VariantBClientOptions): VariantBClient {
  if (typeof options !== 'object' || options === null) {
    throw new ClientConfigError('options', 'createVariantBClient needs an options object: { baseUrl, publicKey, secretKey }.');
  }
  const { publicKey, secretKey, ...shared } = options;
  const pub = requireCredential('publicKey', publicKey, 'X-Public-Key');
  const secret = requireCredential('secretKey', secretKey, 'X-Secret-Key');
  return buildClient<VariantBPaths>(shared, { variant: 'B', credentials: keyPairHeaders(pub, secret), secrets: [pub, secret] });
}
