// Starts one of this folder's scripts from its TypeScript source and waits for the first line it prints.
import path from 'node:path';
import { spawnTiedNode, type PipedChild } from '../../packages/contract/src/shared/children.js';
import { root } from '../../scripts/lib/tools.mjs';
import { fromSource } from '../mock/processes.js';

/** How long a script may take to print its first line: long, since a loaded machine starts processes slowly. */
const START_MS = 60_000;

/** Runs `script` (pushed onto `started`, for the caller to stop by pid); resolves with its first line of output. */
export function startScript(script: string, env: NodeJS.ProcessEnv, started: PipedChild[]): Promise<string> {
  const child = spawnTiedNode(script, [], { cwd: root, nodeArgs: fromSource, env: { ...process.env, ...env } });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const name = path.relative(root, script);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} printed nothing within ${START_MS / 1000} s:\n${stderr}`)),
      START_MS,
    );
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const end = stdout.indexOf('\n');
      if (end === -1) return;
      clearTimeout(timer);
      resolve(stdout.slice(0, end));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before printing a line:\n${stderr}`));
    });
  });
}
