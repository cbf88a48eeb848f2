// Auth as openapi-fetch middleware: Variant A sends a bearer token, Variant B a key pair. Credentials live only in these closures.
import type { Middleware } from 'openapi-fetch';

/** Middleware that sets `Authorization: Bearer <token>` on every request (Variant A). */
export function bearerAuth(accessToken: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${accessToken}`);
      return request;
    },
  };
}

/** Middleware that sets `X-Public-Key` and `X-Secret-Key` on every request (Variant B: both in one security requirement). */
export function keyPairAuth(publicKey: string, secretKey: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('X-Public-Key', publicKey);
      request.headers.set('X-Secret-Key', secretKey);
      return request;
    },
  };
}
