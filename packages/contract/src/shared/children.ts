// Child processes tied to this one: each leads a process group of its own, is stopped with that whole group, and
// never outlives this process, however it ends.
import { spawn, type ChildProcess, type ChildProcessByStdio, type SpawnOptions } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { OWN_GROUPS, signalGroup } from './process-group.js';

/** A child whose stdin, stdout and stderr are pipes. */
export type PipedChild = ChildProcessByStdio<Writable, Readable, Readable>;

/** Options of spawnTiedNode: those of `spawn` that keep the tie intact, plus flags for `node` itself. */
export interface TiedNodeOptions extends Pick<SpawnOptions, 'cwd' | 'env'> {
  /** Flags for `node` before the script, such as `--import tsx` to run TypeScript. */
  nodeArgs?: string[];
}

const preload = new URL('./exit-with-parent.js', import.meta.url).href;
const groupRunner = fileURLToPath(new URL('./run-in-group.js', import.meta.url));
const live = new Set<ChildProcess>();

// Note: 'exit' listeners run synchronously on any normal exit, including process.exit() in a signal
// handler; a SIGKILLed parent is covered by the lifeline pipe each child watches.
process.on('exit', () => {
  for (const child of live) if (child.pid !== undefined) signalGroup(child.pid, 'SIGTERM');
});

function track(child: ChildProcess): void {
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/**
 * Spawns `node <script> ...args` as the leader of a new process group that goes down, whole, when this process dies
 * (the preload watches the stdin pipe); stdout/stderr are pipes.
 */
export function spawnTiedNode(
  script: string,
  args: string[] = [],
  { nodeArgs = [], ...options }: TiedNodeOptions = {},
): PipedChild {
  // Note: detached makes the child a group (and session) leader: stopping it signals the group, so whatever it
  // started goes too, and a Ctrl-C on the terminal reaches it only through this process, once.
  const child = spawn(process.execPath, ['--import', preload, ...nodeArgs, script, ...args], {
    ...options,
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    detached: OWN_GROUPS,
  });
  child.stdin.on('error', () => {}); // Note: EPIPE when the child is already gone is harmless.
  track(child);
  return child;
}

/**
 * Runs any `command` (not only node) in a process group of its own, under run-in-group.js, which passes on SIGINT,
 * SIGTERM and SIGHUP, takes the whole group down when the command exits or this process dies (even by SIGKILL), and
 * exits with the command's code; the group's leader (group-leader.js) takes it down when run-in-group.js itself dies (128 + n after signal n; 127 when it cannot be started). stdin, stdout and stderr
 * are this process's; `name` prefixes the runner's own messages.
 */
export function spawnInGroup(
  name: string,
  command: string,
  args: string[] = [],
  options: Pick<SpawnOptions, 'cwd' | 'env'> = {},
): ChildProcess {
  // Note: the lifeline is fd 3, so the command keeps the terminal's stdin.
  const child = spawn(process.execPath, [groupRunner, name, command, ...args], {
    ...options,
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    shell: false,
    detached: OWN_GROUPS,
  });
  (child.stdio[3] as Writable).on('error', () => {});
  track(child);
  return child;
}

/** True once the child has exited (and been reaped). */
export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends SIGTERM to the child's process group, then SIGKILL after `graceMs`; resolves once the child has exited. */
export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  const pid = child.pid;
  if (hasExited(child) || pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    signalGroup(pid, 'SIGTERM');
  });
}

/** Keeps the last `max` lines written to the child's stdout and stderr, optionally echoing them. */
export function collectOutput(
  child: ChildProcess,
  { max = 40, echo }: { max?: number; echo?: (line: string) => void } = {},
): () => string {
  const lines: string[] = [];
  const push = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.trim() === '') continue;
      lines.push(line);
      if (lines.length > max) lines.shift();
      echo?.(line);
    }
  };
  child.stdout?.on('data', push);
  child.stderr?.on('data', push);
  return () => lines.join('\n');
}
