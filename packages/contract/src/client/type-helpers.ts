// Small type helpers the client types share.
// Note: defined here rather than imported from openapi-typescript-helpers, which is not a direct dependency.

/** The HTTP methods a generated path item may hold. */
export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** The keys of T that are not optional. */
export type RequiredKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];

/** The paths of `Paths` that have an operation for `Method`. */
export type PathsWithMethod<Paths, Method extends HttpMethod> = {
  [Path in keyof Paths]: Paths[Path] extends { [M in Method]: unknown } ? Path : never;
}[keyof Paths];
