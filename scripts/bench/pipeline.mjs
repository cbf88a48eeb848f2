// Pipeline: wall time of the contract loop's steps, each run as a user runs it (`npm run <script>`).
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { quietEnv, root } from '../lib/tools.mjs';
import { interleaved, summarize, timeMs } from './stats.mjs';

/** Runs `npm run <script>` quietly; rejects with its output when it fails. */
export function npmRun(script) {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script], {
      cwd: root,
      env: quietEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm run ${script} failed (${code}):\n${output.slice(-2000)}`)),
    );
  });
}

/** The caches the fast lane keeps under node_modules/.cache: ESLint's, Prettier's and tsc's build info. */
const LANE_CACHES = ['eslint', 'prettier', 'tsc'].map((name) => path.join(root, 'node_modules/.cache', name));

/**
 * Rows: the fast lane once with its caches cleared (as after a fresh clone), then the quick steps and the fast lane
 * (`npm test`) `runs` times, interleaved, with the caches warm, then the full lane (`npm run test:all`) once; ratio =
 * step / full lane.
 */
export async function pipelineTimes({ runs, fullTest }) {
  const scripts = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).scripts;
  for (const cache of LANE_CACHES) rmSync(cache, { recursive: true, force: true });
  const cold = summarize([await timeMs(() => npmRun('test'))]);
  const steps = ['lint', 'bundle', 'generate', 'docs', 'test'].filter((name) => scripts[name]);
  const results = await interleaved(Object.fromEntries(steps.map((s) => [s, () => timeMs(() => npmRun(s))])), {
    runs,
    warmup: 0,
  });
  const rows = [
    { section: 'pipeline', name: 'npm test (fast lane), caches cleared', unit: 'ms', ...cold },
    ...Object.entries(results).map(([name, s]) => ({
      section: 'pipeline',
      name: name === 'test' ? 'npm test (fast lane), caches warm' : `npm run ${name}`,
      unit: 'ms',
      ...s,
      ...(name === 'test' ? { target: '<= 90 s', met: s.median <= 90_000 } : {}),
    })),
  ];
  if (fullTest) {
    const whole = summarize([await timeMs(() => npmRun('test:all'))]);
    for (const row of rows) Object.assign(row, { ratio: row.median / whole.median, baseline: 'npm run test:all' });
    rows.push({ section: 'pipeline', name: 'npm run test:all (full lane)', unit: 'ms', ...whole });
  }
  return rows;
}
