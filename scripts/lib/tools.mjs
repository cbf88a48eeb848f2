// Runs the project's own CLI tools from node_modules with this Node, no shell, telemetry off.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the repository root. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Environment that keeps every tool quiet about telemetry and updates. */
export const quietEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  SCARF_ANALYTICS: 'false',
  DO_NOT_TRACK: '1',
  NO_UPDATE_NOTIFIER: '1',
};

const require = createRequire(path.join(root, 'package.json'));

/** Path of the JS file behind `bin` of an installed package. */
export function binPath(pkg, bin) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const rel = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[bin ?? Object.keys(manifest.bin)[0]];
  if (!rel) throw new Error(`${pkg} has no bin ${bin ?? ''}; run npm ci`);
  return path.join(path.dirname(manifestPath), rel);
}

/** Runs a package's CLI synchronously; returns { status, stdout, stderr }. */
export function runTool(pkg, bin, args, { cwd = root, capture = false, env = {} } = {}) {
  const result = spawnSync(process.execPath, [binPath(pkg, bin), ...args], {
    cwd,
    env: { ...quietEnv, ...env },
    encoding: 'utf8',
    stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

/** Throws a clear error when an input file is missing. */
export function requireFile(file, hint) {
  if (!existsSync(path.resolve(root, file))) {
    throw new Error(`Missing ${file}${hint ? `: ${hint}` : ''}`);
  }
}
