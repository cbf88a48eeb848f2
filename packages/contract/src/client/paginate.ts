// Walks a list operation page by page (limit/offset) and yields its items until `pagination.total`.
import type { HeadersOptions } from 'openapi-fetch';
import { ProblemError } from './errors/problem-error.js';
import { describeProblem, isProblem, type Problem } from './problem.js';
import type { TypedClient } from './typed-client.js';
import type { UndocumentedErrorBody } from './undocumented.js';

type JsonOf<Operation> = Operation extends { responses: { 200: { content: { 'application/json': infer Body } } } }
  ? Body
  : never;

interface Page {
  data: readonly unknown[];
  pagination: { total: number; limit: number; offset: number };
}

/** The paths of `Paths` whose GET answers one page: `{ data: [...], pagination }`. */
export type ListPath<Paths> = {
  [Path in keyof Paths]: Paths[Path] extends { get: infer Operation }
    ? JsonOf<Operation> extends Page
      ? Path
      : never
    : never;
}[keyof Paths] &
  string;

/** The item type of a list path, e.g. `ListItem<VariantBPaths, '/merchant/v1/payouts'>` is `VariantB.Payout`. */
export type ListItem<Paths, Path extends keyof Paths> = Paths[Path] extends { get: infer Operation }
  ? JsonOf<Operation> extends { data: readonly (infer Item)[] }
    ? Item
    : never
  : never;

/** The query parameters of a list path (`limit`, `offset`, `status`). */
export type ListQuery<Paths, Path extends keyof Paths> = Paths[Path] extends {
  get: { parameters: { query?: infer Query } };
}
  ? NonNullable<Query>
  : never;

/** Options of paginate: `limit` is the page size, `offset` where to start; other query parameters filter. */
export interface PaginateInit<Query> {
  params?: { query?: Query };
  headers?: HeadersOptions;
  signal?: AbortSignal;
}

type LooseGet = (path: string, init: object) => Promise<{ data?: Page; error?: unknown; response: Response }>;

// Note: `& string` makes TypeScript list the list paths in its error for a wrong one, instead of naming ListPath<…>.
/** Yields every item of a list operation, fetching pages on demand; throws ProblemError (with the Problem) when a page fails. */
export async function* paginate<Paths extends object, Path extends ListPath<Paths> & string>(
  client: TypedClient<Paths>,
  path: Path,
  init: PaginateInit<ListQuery<Paths, Path>> = {},
): AsyncGenerator<ListItem<Paths, Path>, void, undefined> {
  // Note: the generic client method cannot be called with a path known only as a type parameter.
  const get = client.GET as unknown as LooseGet;
  const query: Record<string, unknown> = { ...(init.params?.query ?? {}) };
  let offset = typeof query.offset === 'number' ? query.offset : 0;
  for (;;) {
    const { data, error, response } = await get(path, { ...init, params: { query: { ...query, offset } } });
    if (data === undefined) throw pageError(path, offset, response, error);
    for (const item of data.data) yield item as ListItem<Paths, Path>;
    // Note: the offset advances by what arrived, not by `limit` or the echoed offset, so a server
    // that caps the page size is walked fully and one that ignores `offset` cannot loop forever.
    offset += data.data.length;
    if (data.data.length === 0 || offset >= data.pagination.total) return;
  }
}

function pageError(path: string, offset: number, response: Response, error: unknown): ProblemError {
  const problem = isProblem(error) ? error : undefined;
  // Note: the client sets `error` on every non-2xx answer; a 2xx without a page (e.g. 204) has none to describe.
  const what = response.ok
    ? `${response.status} without a page in its body`
    : describeProblem(error as Problem | UndocumentedErrorBody);
  return new ProblemError(`GET ${path} at offset ${offset} answered ${what}.`, { status: response.status, problem });
}
