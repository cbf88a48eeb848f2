// The sandbox's dashboard page: its Vite build (packages/sandbox/dashboard/vite.config.mjs) into a folder, and the
// gzipped size of what it built. `npm run build` writes packages/sandbox/dist/dashboard, which the package ships and
// the sandbox serves at /_dashboard/; `npm start` and the browser test build into folders of their own.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { root, runTool } from './tools.mjs';

/** The folder `npm run build` writes the page to, which a sandbox run from the sources serves by default. */
export const dashboardDist = path.join(root, 'packages', 'sandbox', 'dist', 'dashboard');

/** The most the page's files may weigh, gzipped, together. */
export const DASHBOARD_GZIP_BUDGET = 150 * 1024;

/** Vite's command line that builds the page into `outDir`, replacing what was there. */
export function dashboardBuildArgs(outDir) {
  const config = path.join(root, 'packages', 'sandbox', 'dashboard', 'vite.config.mjs');
  return ['build', '--config', config, '--outDir', outDir];
}

/**
 * The environment Vite builds the page in: it builds for the NODE_ENV it finds, and vitest sets `test`, so the page is
 * always built as it ships.
 */
export const dashboardBuildEnv = { NODE_ENV: 'production' };

/** Builds the page into `outDir`; throws with Vite's output when it fails. */
export function buildDashboard(outDir = dashboardDist) {
  const { status, stdout, stderr } = runTool('vite', 'vite', dashboardBuildArgs(outDir), {
    capture: true,
    env: dashboardBuildEnv,
  });
  if (status !== 0) throw new Error(`The dashboard's Vite build failed:\n${stdout}${stderr}`);
}

/** Each built file's path under `dir` and its gzipped bytes (level 9, as a server would send it at best). */
export function gzippedSizes(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return { file: path.relative(dir, file), bytes: gzipSync(readFileSync(file), { level: 9 }).length };
    });
}
