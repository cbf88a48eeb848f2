// Makes the folder this test run's tarball is packed into (by the first test file that asks for it, see pack.ts),
// empties it before a rerun in watch mode so that the rerun packs the changed sources, and removes it at the end.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder the packed tarball of this run goes into. */
    packDir: string;
  }
}

/** Provides `packDir` and returns the teardown that removes it. */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'merchant-payments-pack-'));
  project.provide('packDir', dir);
  project.onTestsRerun(() => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
  });
  return () => rmSync(dir, { recursive: true, force: true });
}
