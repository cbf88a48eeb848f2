// How a command module runs: its `main(args)` is called by the `merchant-payments` dispatcher, by its own bin, or,
// when the module itself is the script node was started with (tests run the sources with tsx), by the module.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A command: parses `args` (the words after its name) and resolves to its exit code, or to nothing while it serves. */
export type CommandMain = (args: string[]) => Promise<number | void>;

/** Runs `main` with this process's arguments; a number it resolves to becomes the exit code once output is flushed. */
export async function runCommand(main: CommandMain, args: string[] = process.argv.slice(2)): Promise<void> {
  const code = await main(args);
  if (code !== undefined) process.exitCode = code;
}

/** True when the module at `moduleUrl` is the script node was started with (symbolic links resolved). */
export function isEntry(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
