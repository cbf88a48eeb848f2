// Runs a command's `main` in this process, as its bin would: with the given arguments and environment variables, its
// console output captured, and process.exit turned into the exit code it asked for.
import { vi } from 'vitest';
import type { CommandMain } from '../../packages/contract/src/shared/entry.js';

/** What a command run in-process printed, and its exit code. */
export interface MainResult {
  code: number | undefined;
  stdout: string;
  stderr: string;
}

class Exit extends Error {
  constructor(readonly code: number | undefined) {
    super(`process.exit(${code})`);
  }
}

/**
 * Runs `main(args)` with `env` laid over process.env (an undefined value removes a variable) and puts everything back
 * afterwards. Resolves to the code `main` resolved to or passed to process.exit.
 */
export async function runMain(
  main: CommandMain,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<MainResult> {
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  const error = vi.spyOn(console, 'error').mockImplementation(() => {});
  const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
    throw new Exit(code === undefined || code === null ? undefined : Number(code));
  });
  set(env);
  try {
    let code: number | undefined;
    try {
      code = (await main(args)) ?? undefined;
    } catch (thrown) {
      if (!(thrown instanceof Exit)) throw thrown;
      code = thrown.code;
    }
    return {
      code,
      stdout: log.mock.calls.map((call) => call.join(' ')).join('\n'),
      stderr: error.mock.calls.map((call) => call.join(' ')).join('\n'),
    };
  } finally {
    set(saved);
    log.mockRestore();
    error.mockRestore();
    exit.mockRestore();
  }
}
