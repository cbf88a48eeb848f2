import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Note: CONTRACT_BUNDLE_DIR lets these tools judge a candidate bundle before it replaces packages/contract/generated/openapi.
const bundleDir = path.resolve(root, process.env['CONTRACT_BUNDLE_DIR'] ?? 'packages/contract/generated/openapi');

/** The bundled spec of each variant, as the independent tools read it. */
export const bundles = [
  { variant: 'variant-a', file: path.join(bundleDir, 'variant-a.yaml') },
  { variant: 'variant-b', file: path.join(bundleDir, 'variant-b.yaml') },
] as const;

/** A temporary directory whose code resolves packages from the project's node_modules. */
export interface Workspace {
  dir: string;
  remove(): void;
}

/** Makes a temporary directory outside the tree; its node_modules link lets generated imports (zod) resolve. */
export function makeWorkspace(prefix: string): Workspace {
  const dir = mkdtempSync(path.join(tmpdir(), `contract-${prefix}-`));
  // Note: a junction needs no privilege on Windows; POSIX ignores the type.
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
  // Note: rmSync does not follow the node_modules link, so only the temporary files go.
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
