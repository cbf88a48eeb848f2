// For each status, which creation numbers are in it, as a Fenwick tree: moving an object and finding the k-th
// object in a status both cost O(log n), so a filtered page costs the same at 100 objects and at 100,000.

/** The index; plain data (typed arrays), so that it survives structuredClone. */
export interface StatusIndex {
  capacity: number;
  /** Status of each creation number, as a code into `statuses`. */
  codes: Uint8Array;
  statuses: string[];
  /** One Fenwick tree (1-based) of membership per status code. */
  trees: Int32Array[];
  counts: number[];
}

/** An empty index. */
export function createStatusIndex(): StatusIndex {
  return { capacity: 0, codes: new Uint8Array(0), statuses: [], trees: [], counts: [] };
}

function add(tree: Int32Array, seq: number, delta: number): void {
  for (let i = seq + 1; i < tree.length; i += i & -i) tree[i]! += delta;
}

function codeOf(index: StatusIndex, status: string): number {
  let code = index.statuses.indexOf(status);
  if (code < 0) {
    code = index.statuses.push(status) - 1;
    index.trees.push(new Int32Array(index.capacity + 1));
    index.counts.push(0);
    for (let seq = 0; seq < index.capacity; seq++) if (index.codes[seq] === code + 1) add(index.trees[code]!, seq, 1);
  }
  return code;
}

/** Doubles the capacity, rebuilding the trees (amortised O(1) per insert). */
function grow(index: StatusIndex, size: number): void {
  const capacity = Math.max(1024, index.capacity * 2, size);
  const codes = new Uint8Array(capacity);
  codes.set(index.codes);
  index.codes = codes;
  index.capacity = capacity;
  index.trees = index.trees.map(() => new Int32Array(capacity + 1));
  for (let seq = 0; seq < capacity; seq++) {
    const code = codes[seq]!;
    if (code > 0) add(index.trees[code - 1]!, seq, 1);
  }
}

/** Records that creation number `seq` (the next one) is in `status`. */
export function indexInsert(index: StatusIndex, seq: number, status: string): void {
  if (seq >= index.capacity) grow(index, seq + 1);
  const code = codeOf(index, status);
  index.codes[seq] = code + 1;
  add(index.trees[code]!, seq, 1);
  index.counts[code]! += 1;
}

/** Moves creation number `seq` to `status`. */
export function indexMove(index: StatusIndex, seq: number, status: string): void {
  const from = index.codes[seq]! - 1;
  const to = codeOf(index, status);
  if (from === to) return;
  add(index.trees[from]!, seq, -1);
  index.counts[from]! -= 1;
  add(index.trees[to]!, seq, 1);
  index.counts[to]! += 1;
  index.codes[seq] = to + 1;
}

/** How many objects are in `status`. */
export function indexCount(index: StatusIndex, status: string): number {
  const code = index.statuses.indexOf(status);
  return code < 0 ? 0 : index.counts[code]!;
}

/** The creation number of the k-th (1-based, oldest first) object in `status`. */
export function indexNth(index: StatusIndex, status: string, k: number): number {
  const tree = index.trees[index.statuses.indexOf(status)]!;
  let pos = 0;
  let step = 1;
  while (step * 2 < tree.length) step *= 2;
  for (; step > 0; step >>= 1) {
    if (pos + step < tree.length && tree[pos + step]! < k) {
      pos += step;
      k -= tree[pos]!;
    }
  }
  return pos;
}
