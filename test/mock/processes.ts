// Helpers for the tests that stop servers: a process's descendants (Linux /proc), liveness, a bounded wait for ports,
// and the node flags that run the mock's TypeScript sources.
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnTiedNode } from '../../packages/contract/src/shared/children.js';
import { assertPortFree } from '../../packages/cli/src/mock/ports.js';
import { root } from '../../scripts/lib/tools.mjs';

/** Flags for `node` that let it run src/ as it is (tsx), from any working directory. */
export const fromSource = [
  '--import',
  pathToFileURL(createRequire(path.join(root, 'package.json')).resolve('tsx')).href,
];

/** How long a command run by `runSource` may take: long, since a loaded machine starts processes slowly. */
export const RUN_SOURCE_MS = 90_000;

/**
 * Runs a command's TypeScript source to completion (added to `started`, for the caller to stop); its exit code and
 * output. Rejects with "timed out after N s" and what the command printed when it takes longer than `timeoutMs`.
 */
export function runSource(
  source: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  started: ChildProcess[],
  timeoutMs = RUN_SOURCE_MS,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnTiedNode(source, args, { cwd: root, nodeArgs: fromSource, env });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      const name = [path.relative(root, source), ...args].join(' ');
      reject(new Error(`${name} timed out after ${timeoutMs / 1000} s; stdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Every descendant pid of `pid`, read from /proc (Linux). */
export function descendants(pid: number): number[] {
  let children: number[];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** True while `pid` exists and is not a zombie waiting to be reaped. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Polls until every pid is gone (at most `ms`); resolves to those still alive. */
export async function stillAlive(pids: number[], ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.filter(alive);
}

/** Polls until nothing listens on any of `ports` on 127.0.0.1 (at most `ms`); resolves to those still bound. */
export async function stillBound(ports: number[], ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const bound: number[] = [];
    for (const port of ports) await assertPortFree(port, '127.0.0.1').catch(() => bound.push(port));
    if (bound.length === 0 || Date.now() >= deadline) return bound;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** SIGKILLs each pid still alive, so a failed test leaves nothing running. */
export function killAll(pids: Iterable<number>): void {
  for (const pid of pids) {
    try {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    } catch {
      // Note: gone in between.
    }
  }
}
