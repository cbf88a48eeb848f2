// Flags for this package's commands: node:util parseArgs, with --help and malformed flags handled the same way everywhere.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
const HELP = { help: { type: 'boolean', short: 'h' } } as const;
/** The values parseArgs returns for `options` (with --help). */
type Values<T extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: T & typeof HELP }>>['values'];

/** What parseFlags needs: the command's name and usage, its options, and the exit code of a usage error. */
export interface FlagsConfig<T extends Options> {
  name: string;
  usage: string;
  options: T;
  args?: string[];
  code?: number;
}

/**
 * Parses `args` with `options` plus --help/-h. On --help prints `usage` and exits 0; on an unknown or malformed flag
 * prints `<name>: <problem>` and the usage to stderr and exits `code` (default 2, a usage error).
 */
export function parseFlags<T extends Options>({ name, usage, options, args = process.argv.slice(2), code = 2 }: FlagsConfig<T>): Values<T> {
  let values: Values<T>;
  try {
    ({ values } = parseArgs({ args, options: { ...options, ...HELP } }));
  } catch (error) {
    console.error(`${name}: ${(error as Error).message}\n${usage}`);
    process.exit(code);
  }
  if ((values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}

/**
 * The words before `--` (the flags) and after it (the command to run beside the server), as `mock` and `sandbox` take
 * them; exits with a usage error when `--` has no command after it.
 */
export function splitCommand(name: string, usage: string, args: string[]): { flags: string[]; command: string[] } {
  const dashes = args.indexOf('--');
  if (dashes === -1) return { flags: args, command: [] };
  if (dashes === args.length - 1) {
    console.error(`${name}: a command must follow --\n${usage}`);
    process.exit(2);
  }
  return { flags: args.slice(0, dashes), command: args.slice(dashes + 1) };
}
