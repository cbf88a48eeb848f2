// Auth as openapi-fetch middleware: the variant's credential headers, set only on requests the client's own transport sends.
import type { Middleware } from 'openapi-fetch';
import { ClientConfigError } from './errors/client-config-error.js';
import type { FetchLike } from './options.js';

/** Variant A's credential header. */
export const bearerHeaders = (accessToken: string): Record<string, string> => ({
  Authorization: `Bearer ${accessToken}`,
});

/** Variant B's credential headers: both in one security requirement. */
export const keyPairHeaders = (publicKey: string, secretKey: string): Record<string, string> => ({
  'X-Public-Key': publicKey,
  'X-Secret-Key': secretKey,
});

/** Middleware that sets `credentials` on every request, and refuses a call whose own `fetch` would bypass `transport`. */
export function authMiddleware(credentials: Readonly<Record<string, string>>, transport: FetchLike): Middleware {
  const entries = Object.entries(credentials);
  return {
    onRequest({ request, options }) {
      // Note: a per-call fetch replaces the transport, and with it the time-out, retries and the redirect
      // policy that keeps credentials on the API's origin; the credentials are not handed to it.
      if (options.fetch !== transport) {
        throw new ClientConfigError(
          'fetch',
          'A per-call fetch option is not supported: it would bypass the time-out, retries and redirect policy. ' +
            'Pass fetch to createVariantAClient or createVariantBClient instead.',
        );
      }
      for (const [name, value] of entries) request.headers.set(name, value);
      return request;
    },
  };
}
