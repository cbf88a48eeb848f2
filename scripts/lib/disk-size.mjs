// What a folder takes on disk, as `du` counts it (allocated blocks, links not followed), and its files' bytes: the
// install sizes that the bench reports and the package tests hold to their limits.
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** `{ disk, bytes }` of `dir`, both in bytes. */
export function sizeOf(dir) {
  const total = { disk: lstatSync(dir).blocks * 512, bytes: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = sizeOf(file);
      total.disk += inner.disk;
      total.bytes += inner.bytes;
    } else {
      const stat = lstatSync(file);
      total.disk += stat.blocks * 512;
      if (!entry.isSymbolicLink()) total.bytes += stat.size;
    }
  }
  return total;
}
