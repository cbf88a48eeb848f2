// The client type both variants return: openapi-fetch's Client, with request options checked exactly.
import type { Client, FetchOptions, FetchResponse } from 'openapi-fetch';
import type { HttpMethod, PathsWithMethod, RequiredKeys } from './type-helpers.js';
import type { UndocumentedErrorBody } from './undocumented.js';

// Note: `fetch` is left out: a per-call fetch would bypass the client's transport (see authMiddleware).
/** The request options of one operation. */
export type CallOptions<Operation> = Omit<FetchOptions<Operation>, 'fetch'>;

type InitArgs<Operation> =
  RequiredKeys<CallOptions<Operation>> extends never ? [init?: CallOptions<Operation>] : [init: CallOptions<Operation>];

// Note: openapi-fetch infers the whole init object as a type parameter and adds `[key: string]: unknown`,
// so a misspelt or unknown body field compiles (openapi-ts/openapi-typescript#2329). Here the init is
// typed from the path alone, so TypeScript checks object literals for excess properties at any depth.
/**
 * What a call resolves to: `data` on 2xx; otherwise `error`, the contract's error body for the status (a Problem) or,
 * when the body is not one (a proxy's page, an empty body), an UndocumentedErrorBody.
 */
export type CallResult<Result> = Result extends { error: infer Body }
  ? { data?: never; error: Body | UndocumentedErrorBody; response: Response }
  : Result;

// Note: `& string` makes TypeScript list the paths in its error for a wrong one, instead of printing the
// unexpanded `PathsWithMethod<WithOptionalIdempotencyKey<paths>, "get">`.
/** One HTTP method of a typed client: `client.POST('/payments', { body })`, resolving to `{ data, error, response }`. */
export type TypedMethod<Paths, Method extends HttpMethod> = <Path extends PathsWithMethod<Paths, Method> & string>(
  url: Path,
  ...init: InitArgs<Paths[Path][Method & keyof Paths[Path]]>
) => Promise<
  CallResult<
    FetchResponse<
      Paths[Path][Method & keyof Paths[Path]] & Record<string | number, unknown>,
      FetchOptions<Paths[Path][Method & keyof Paths[Path]]>,
      `${string}/${string}`
    >
  >
>;

/** An openapi-fetch client whose method calls are checked exactly against `Paths`; `use` and `eject` add or remove middleware. */
export interface TypedClient<Paths extends object> extends Pick<Client<Paths>, 'use' | 'eject'> {
  /** Calls a GET operation. */
  GET: TypedMethod<Paths, 'get'>;
  /** Calls a PUT operation. */
  PUT: TypedMethod<Paths, 'put'>;
  /** Calls a POST operation. */
  POST: TypedMethod<Paths, 'post'>;
  /** Calls a DELETE operation. */
  DELETE: TypedMethod<Paths, 'delete'>;
  /** Calls a PATCH operation. */
  PATCH: TypedMethod<Paths, 'patch'>;
}
