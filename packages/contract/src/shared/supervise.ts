// The life of a command that serves something: until a signal, whoever launched it, or, with a command after `--`,
// exactly as long as that command runs (in a process group of its own), then it stops the server and exits with the
// command's code.
import type { ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import { spawnInGroup } from './children.js';
import { watchParent } from './watch-parent.js';

/** What supervise needs: the command's name, the command to run beside the server (may be empty), its environment, and how to stop the server. */
export interface SuperviseOptions {
  name: string;
  command: string[];
  env: NodeJS.ProcessEnv;
  /** Stops the server; `why` says what stopped it, for a log line (`SIGTERM`, `the command exited 0`, …). */
  close(why: string): Promise<void>;
  /**
   * Also stop when whoever launched this process is gone (its parent, or the npm above it). Off by default, so that a
   * server started by a shell, `nohup` or a daemonising script outlives it; always on with a command after `--`,
   * whose life the server's follows.
   */
  exitWhenOrphaned?: boolean;
  /** The longest stopping may take: past it, the process exits with its code whatever `close` still waits for. */
  stopWithinMs?: number;
}

/** Runs the server's life as described above; returns `stop(code)`, which stops everything and exits once. */
export function supervise({ name, command, env, close, stopWithinMs, exitWhenOrphaned = false }: SuperviseOptions): {
  stop(code: number, why?: string): Promise<void>;
  stopping(): boolean;
} {
  let stopping = false;
  let child: ChildProcess | undefined;
  const stop = async (code: number, why = `exit ${code}`): Promise<void> => {
    if (stopping) return;
    stopping = true;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    if (stopWithinMs !== undefined) setTimeout(() => process.exit(code), stopWithinMs).unref();
    await close(why);
    process.exit(code);
  };
  // Note: run through npx or an npm script, a SIGKILLed npm leaves this process running; with a command after `--`
  // (or when asked), stop when the launcher is gone.
  if (command.length > 0 || exitWhenOrphaned) watchParent(() => void stop(1, 'its launcher is gone'));
  if (command.length === 0) {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(signal, () => void stop(0, signal));
  } else {
    // Note: the command and anything it starts form one process group, which goes down when the command exits or this
    // process dies, even by SIGKILL; a signal to this process is passed on, and the server stops once the group is gone.
    const group = spawnInGroup(name, command[0]!, command.slice(1), { env });
    child = group;
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => group.kill(signal));
    group.once('exit', (code, sig) => {
      const status = code ?? 128 + (sig ? constants.signals[sig] : 0);
      void stop(status, `the command exited ${sig ?? status}`);
    });
  }
  return { stop, stopping: () => stopping };
}
