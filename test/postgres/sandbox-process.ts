// The sandbox command from its source (tsx), as a process of its own on 127.0.0.1 port 0, for the files that run
// several of them on one database; each is pushed onto the caller's list, to be stopped by its pid.
import path from 'node:path';
import { root } from '../../scripts/lib/tools.mjs';
import { spawnTiedNode, type PipedChild, type TiedNodeOptions } from '../../packages/contract/src/shared/children.js';
import { fromSource } from '../mock/processes.js';

/** The sandbox command's source. */
export const SANDBOX_COMMAND = path.join(root, 'packages/sandbox/src/cli/command.ts');

/** How long a sandbox may take to listen: long, since a loaded machine starts tsx and migrates slowly. */
const START_MS = 90_000;

/** A sandbox process and the URL it listens on. */
export interface SandboxProcess {
  child: PipedChild;
  url: string;
}

/** Starts `merchant-payments sandbox --port 0 …args` from its source with `env` over process.env; resolves once it listens. */
export function startSandbox(args: string[], env: NodeJS.ProcessEnv, started: PipedChild[]): Promise<SandboxProcess> {
  return startListening(
    SANDBOX_COMMAND,
    ['--port', '0', ...args],
    { cwd: root, nodeArgs: fromSource, env: { ...process.env, ...env } },
    started,
  );
}

/** Starts a script that runs the sandbox (its source, or an installed bin); resolves once it prints where it listens. */
export function startListening(
  script: string,
  args: string[],
  options: TiedNodeOptions,
  started: PipedChild[],
): Promise<SandboxProcess> {
  const child = spawnTiedNode(script, args, options);
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the sandbox did not listen within ${START_MS / 1000} s:\n${stdout}\n${stderr}`)),
      START_MS,
    );
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = /listening on (http:\/\/\S+) /.exec(stdout)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ child, url });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code ?? signal}) before it listened:\n${stdout}\n${stderr}`));
    });
  });
}
