// Seeded ids: the same seed and the same commands give the same ids, tenant by tenant.

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Where a tenant's ids come from; plain data, so that it survives structuredClone. */
export interface IdSource {
  /** State of the pseudo-random generator. */
  state: number;
  /** How many ids were drawn; appended so that ids never collide. */
  count: number;
}

/** 32-bit FNV-1a of a string, to turn a seed and a tenant into a generator state. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** An id source for one tenant of a seeded sandbox. */
export function createIdSource(seed: string, tenant: string): IdSource {
  return { state: hash(`${seed}\u0000${tenant}`), count: 0 };
}

/** Next 32-bit value of mulberry32. */
function next(source: IdSource): number {
  source.state = (source.state + 0x6d2b79f5) >>> 0;
  let t = source.state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

/** A new id such as `pay_k3m9q2x7` + a counter, matching the contract's ResourceId pattern. */
export function nextId(source: IdSource, prefix: string): string {
  let random = '';
  for (let i = 0; i < 8; i++) random += ALPHABET[next(source) % ALPHABET.length];
  source.count += 1;
  return `${prefix}_${random}${source.count.toString(36).padStart(4, '0')}`;
}

/** A random integer below `bound`, from the same source (for generated card digits). */
export function nextInt(source: IdSource, bound: number): number {
  return next(source) % bound;
}
