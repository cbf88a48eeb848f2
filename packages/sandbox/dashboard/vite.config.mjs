// Vite's build of the dashboard (scripts/lib/dashboard.mjs runs it; `npm run build` writes packages/sandbox/dist/dashboard).
// The page imports the contract's clients by the packages' names, resolved to their sources as everywhere in the repository.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { sourceAliases } from '../../../scripts/lib/workspaces.mjs';

export default defineConfig({
  root: path.dirname(fileURLToPath(import.meta.url)),
  base: '/_dashboard/',
  logLevel: 'warn',
  clearScreen: false,
  publicDir: false,
  resolve: { alias: sourceAliases },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    emptyOutDir: true,
    // Note: the Content-Security-Policy allows no inline script, and every browser the page targets preloads modules.
    modulePreload: { polyfill: false },
    // Note: every asset a file of its own, so the policy's 'self' covers them all.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
    sourcemap: false,
    target: 'es2022',
  },
});
