// Idempotency-Key: generated once per state-changing call (before any retry), and optional in the client's types.
import type { Middleware } from 'openapi-fetch';
import type { HttpMethod, RequiredKeys } from './type-helpers.js';

/** The header name, as the contract spells it. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** True for methods that change state (POST, PUT, PATCH, DELETE): the ones that get a key. */
export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** Middleware that gives every state-changing request without an Idempotency-Key a fresh one; a caller's key is kept as is. */
export function idempotencyKeyMiddleware(generate: () => string): Middleware {
  return {
    onRequest({ request }) {
      if (!isStateChanging(request.method) || request.headers.has(IDEMPOTENCY_KEY_HEADER)) return undefined;
      // Note: set on the Request before openapi-fetch calls fetch, so all retries of this call share it.
      request.headers.set(IDEMPOTENCY_KEY_HEADER, generate());
      return request;
    },
  };
}

type Key = typeof IDEMPOTENCY_KEY_HEADER;

/** A header parameter object with Idempotency-Key made optional. */
type OptionalKeyHeader<Header> = Omit<Header, Key> & { [K in Key & keyof Header]?: Header[K] };

/** Operation parameters with Idempotency-Key optional; `header` itself becomes optional when nothing else in it is required. */
type OptionalKeyParameters<Params> = Params extends { header: infer Header }
  ? Key extends keyof Header
    ? Omit<Params, 'header'> &
        (RequiredKeys<Omit<Header, Key>> extends never
          ? { header?: OptionalKeyHeader<Header> }
          : { header: OptionalKeyHeader<Header> })
    : Params
  : Params;

/** An operation whose Idempotency-Key header parameter, if any, is optional. */
export type OptionalKeyOperation<Operation> = Operation extends { parameters: infer Params }
  ? Omit<Operation, 'parameters'> & { parameters: OptionalKeyParameters<Params> }
  : Operation;

// Note: the contract marks Idempotency-Key `required: true` (the service needs it), so the generated
// types require it; the client always sends one, so callers may leave it out.
/** `paths` with Idempotency-Key optional for callers on every operation; everything else unchanged. */
export type WithOptionalIdempotencyKey<Paths> = {
  [Path in keyof Paths]: {
    [Method in keyof Paths[Path]]: Method extends HttpMethod
      ? OptionalKeyOperation<Paths[Path][Method]>
      : Paths[Path][Method];
  };
};
