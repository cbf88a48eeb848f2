// One kind's objects in creation order, with an index per status, so that a page costs its size, not the store's.
import type { AnyStatus } from './types.js';

/** The objects of one kind in one tenant; plain data, so that it survives structuredClone. */
export interface Collection<R extends { id: string; status: AnyStatus }, Q> {
  byId: Map<string, R>;
  /** The create request of each object. */
  requests: Map<string, Q>;
  /** Ids in creation order: `order[seq]`. */
  order: string[];
  seqOf: Map<string, number>;
  /** For each status, the creation numbers of the objects in it, ascending. */
  byStatus: Map<AnyStatus, number[]>;
}

/** An empty collection. */
export function createCollection<R extends { id: string; status: AnyStatus }, Q>(): Collection<R, Q> {
  return { byId: new Map(), requests: new Map(), order: [], seqOf: new Map(), byStatus: new Map() };
}

/** Index of the first element of a sorted array that is not below `value`. */
function lowerBound(sorted: number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function bucket<R extends { id: string; status: AnyStatus }, Q>(c: Collection<R, Q>, status: AnyStatus): number[] {
  let list = c.byStatus.get(status);
  if (!list) c.byStatus.set(status, (list = []));
  return list;
}

/** Adds a new object (the newest). */
export function insert<R extends { id: string; status: AnyStatus }, Q>(c: Collection<R, Q>, record: R, request: Q): void {
  const seq = c.order.length;
  c.order.push(record.id);
  c.seqOf.set(record.id, seq);
  c.byId.set(record.id, record);
  c.requests.set(record.id, request);
  bucket(c, record.status).push(seq);
}

/** Moves an object's index entry from its previous status to its current one. */
export function reindex<R extends { id: string; status: AnyStatus }, Q>(c: Collection<R, Q>, record: R, previous: AnyStatus): void {
  const seq = c.seqOf.get(record.id)!;
  const from = bucket(c, previous);
  from.splice(lowerBound(from, seq), 1);
  const to = bucket(c, record.status);
  to.splice(lowerBound(to, seq), 0, seq);
}

/** A page, newest first, of the objects (in `status`, if given), and how many there are in all. */
export function page<R extends { id: string; status: AnyStatus }, Q>(
  c: Collection<R, Q>,
  options: { status?: AnyStatus | undefined; limit: number; offset: number },
): { items: R[]; total: number } {
  const seqs = options.status === undefined ? undefined : (c.byStatus.get(options.status) ?? []);
  const total = seqs ? seqs.length : c.order.length;
  const items: R[] = [];
  for (let i = total - 1 - options.offset; i >= 0 && items.length < options.limit; i--) {
    const id = c.order[seqs ? seqs[i]! : i]!;
    items.push(c.byId.get(id)!);
  }
  return { items, total };
}
