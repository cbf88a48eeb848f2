// The Variant A client: bearer token auth, paths without a prefix.
import type { paths } from '../../generated/types/variant-a.js';
import { bearerHeaders } from './auth.js';
import { buildClient } from './create-client.js';
import { ClientConfigError } from './errors/client-config-error.js';
import type { WithOptionalIdempotencyKey } from './idempotency.js';
import type { TypedClient } from './typed-client.js';
import { requireCredential, type ClientOptions } from './options.js';

/** Variant A's paths as the client takes them: Idempotency-Key optional. */
export type VariantAPaths = WithOptionalIdempotencyKey<paths>;

/** The Variant A client: `client.GET('/payments')`, `client.POST('/payments/{id}/confirm', …)`, each returning `{ data, error, response }`. */
export type VariantAClient = TypedClient<VariantAPaths>;

/** Options of createVariantAClient. */
export interface VariantAClientOptions extends ClientOptions {
  /** The bearer token, sent as `Authorization: Bearer <accessToken>`. */
  accessToken: string;
}

/** Creates a typed Variant A client; throws ClientConfigError on a missing token or a bad baseUrl. */
export function createVariantAClient(options: VariantAClientOptions): VariantAClient {
  if (typeof options !== 'object' || options === null) {
    throw new ClientConfigError('options', 'createVariantAClient needs an options object: { baseUrl, accessToken }.');
  }
  const { accessToken, ...shared } = options;
  const token = requireCredential('accessToken', accessToken, 'Authorization');
  return buildClient<VariantAPaths>(shared, { variant: 'A', credentials: bearerHeaders(token), secrets: [token] });
}
