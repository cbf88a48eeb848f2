// One kind's objects as plain Maps: a page filters and slices, which is fast enough at the in-memory store's scale
// (`npm run bench`, docs/benchmarks.md).
import type { AnyStatus } from './types.js';

/** The objects of one kind in one tenant; plain data, so that it survives structuredClone. */
export interface Collection<R extends { id: string; status: AnyStatus }, Q> {
  /** Every object by id; the Map's order is creation order (replacing a record keeps its place). */
  byId: Map<string, R>;
  /** The create request of each object. */
  requests: Map<string, Q>;
}

/** An empty collection. */
export function createCollection<R extends { id: string; status: AnyStatus }, Q>(): Collection<R, Q> {
  return { byId: new Map(), requests: new Map() };
}

/** Adds a new object (the newest). */
export function insert<R extends { id: string; status: AnyStatus }, Q>(
  c: Collection<R, Q>,
  record: R,
  request: Q,
): void {
  c.byId.set(record.id, record);
  c.requests.set(record.id, request);
}

/** Replaces an object with its next version. */
export function replace<R extends { id: string; status: AnyStatus }, Q>(c: Collection<R, Q>, record: R): void {
  c.byId.set(record.id, record);
}

/** A page, newest first, of the objects (in `status`, if given), and how many there are in all. */
export function page<R extends { id: string; status: AnyStatus }, Q>(
  c: Collection<R, Q>,
  options: { status?: AnyStatus | undefined; limit: number; offset: number },
): { items: R[]; total: number } {
  const { status, limit, offset } = options;
  const all = [...c.byId.values()];
  const matching = status === undefined ? all : all.filter((record) => record.status === status);
  const end = Math.max(0, matching.length - offset);
  return { items: matching.slice(Math.max(0, end - limit), end).reverse(), total: matching.length };
}
