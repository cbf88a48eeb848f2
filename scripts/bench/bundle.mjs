// Bundle size: what a user's bundler ships for one client, for verifyWebhook, and for everything,
// minified and gzipped by esbuild and zlib, `node:*` external; reports the inputs that dominate. Then the sandbox's
// dashboard page, as Vite builds it, gzipped.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { buildDashboard, DASHBOARD_GZIP_BUDGET, gzippedSizes } from '../lib/dashboard.mjs';
import { root } from '../lib/tools.mjs';

const ENTRIES = [
  {
    name: 'Variant B client',
    code: "import { createVariantBClient } from './packages/contract/src/index.ts'; export default createVariantBClient;",
    target: 6 * 1024,
  },
  {
    name: 'verifyWebhook',
    code: "import { verifyWebhook } from './packages/contract/src/webhooks/index.ts'; export default verifyWebhook;",
    target: 8 * 1024,
  },
  { name: 'everything', code: "export * from './packages/contract/src/index.ts';" },
];

/** Minified + gzipped size of one entry, and the three inputs that put the most bytes in it. */
export async function measureEntry(code) {
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'ts', sourcefile: 'entry.ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['import', 'default'],
    external: ['node:*'],
    metafile: true,
    write: false,
    logLevel: 'error',
  });
  const bytes = result.outputFiles[0].contents;
  const [output] = Object.values(result.metafile.outputs);
  const top = Object.entries(output.inputs)
    .sort(([, x], [, y]) => y.bytesInOutput - x.bytesInOutput)
    .slice(0, 3)
    .map(([file, { bytesInOutput }]) => `${shortName(file)} ${(bytesInOutput / 1024).toFixed(1)} KB`);
  return { minified: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length, top };
}

function shortName(file) {
  return file
    .replace(/^node_modules\//, '')
    .replace(/^.*node_modules\//, '')
    .replace(`${root}${path.sep}`, '');
}

/** Rows: gzipped size (min = max = median: the build is deterministic) against each target. */
export async function bundleSizes() {
  const rows = [];
  const notes = [];
  for (const entry of ENTRIES) {
    const { minified, gzipped, top } = await measureEntry(entry.code);
    const row = {
      section: 'bundle size',
      name: `${entry.name} (min+gzip; ${(minified / 1024).toFixed(1)} KB minified)`,
      unit: 'B',
      median: gzipped,
      min: gzipped,
      max: gzipped,
      runs: 1,
    };
    if (entry.target) Object.assign(row, { target: `<= ${entry.target / 1024} KB`, met: gzipped <= entry.target });
    rows.push(row);
    notes.push(`${entry.name}: largest inputs (minified bytes in output) ${top.join(', ')}`);
  }
  rows.push(dashboardSize());
  return { rows, notes };
}

/** The sandbox's dashboard page as Vite builds it, every file gzipped (test/sandbox/dashboard-browser.test.ts holds the budget). */
function dashboardSize() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-dashboard-'));
  try {
    buildDashboard(dir);
    const gzipped = gzippedSizes(dir).reduce((sum, { bytes }) => sum + bytes, 0);
    return {
      section: 'bundle size',
      name: "the sandbox's dashboard page (Vite build, every file gzipped)",
      unit: 'B',
      median: gzipped,
      min: gzipped,
      max: gzipped,
      runs: 1,
      target: `<= ${DASHBOARD_GZIP_BUDGET / 1024} KB`,
      met: gzipped <= DASHBOARD_GZIP_BUDGET,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
