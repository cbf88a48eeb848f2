// One kind's objects in creation order, with an index per status, so that a page costs its size, not the store's.
import { createStatusIndex, indexCount, indexInsert, indexMove, indexNth, type StatusIndex } from './status-index.js';
import type { AnyStatus } from './types.js';

/** The objects of one kind in one tenant; plain data, so that it survives structuredClone. */
export interface Collection<R extends { id: string; status: AnyStatus }, Q> {
  byId: Map<string, R>;
  /** The create request of each object. */
  requests: Map<string, Q>;
  /** Ids in creation order: `order[seq]`. */
  order: string[];
  seqOf: Map<string, number>;
  byStatus: StatusIndex;
}

/** An empty collection. */
export function createCollection<R extends { id: string; status: AnyStatus }, Q>(): Collection<R, Q> {
  return { byId: new Map(), requests: new Map(), order: [], seqOf: new Map(), byStatus: createStatusIndex() };
}

/** Adds a new object (the newest). */
export function insert<R extends { id: string; status: AnyStatus }, Q>(c: Collection<R, Q>, record: R, request: Q): void {
  const seq = c.order.length;
  c.order.push(record.id);
  c.seqOf.set(record.id, seq);
  c.byId.set(record.id, record);
  c.requests.set(record.id, request);
  indexInsert(c.byStatus, seq, record.status);
}

/** Replaces an object with its next version, moving it in the status index. */
export function replace<R extends { id: string; status: AnyStatus }, Q>(c: Collection<R, Q>, record: R): void {
  c.byId.set(record.id, record);
  indexMove(c.byStatus, c.seqOf.get(record.id)!, record.status);
}

/** A page, newest first, of the objects (in `status`, if given), and how many there are in all. */
export function page<R extends { id: string; status: AnyStatus }, Q>(
  c: Collection<R, Q>,
  options: { status?: AnyStatus | undefined; limit: number; offset: number },
): { items: R[]; total: number } {
  const { status } = options;
  const total = status === undefined ? c.order.length : indexCount(c.byStatus, status);
  const items: R[] = [];
  for (let k = total - options.offset; k >= 1 && items.length < options.limit; k--) {
    const seq = status === undefined ? k - 1 : indexNth(c.byStatus, status, k);
    items.push(c.byId.get(c.order[seq]!)!);
  }
  return { items, total };
}
