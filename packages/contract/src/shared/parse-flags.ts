// Flags for this package's commands: node:util parseArgs, with --help and malformed flags handled the same way everywhere.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
const HELP = { help: { type: 'boolean', short: 'h' } } as const;
// Note: refused by name in every command, rather than left to parseArgs as unknown, so that a script that still
// passes it learns where the secret goes now; a flag shows in ps, shell history and CI logs.
const SECRET_FLAGS = ['--webhook-secret'];
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
 * prints `<name>: <problem>` and the usage to stderr and exits `code` (default 2, a usage error). A flag that would
 * carry a secret (--webhook-secret) is refused with exit 2 and a message naming WEBHOOK_SECRET, in every command.
 */
export function parseFlags<T extends Options>({
  name,
  usage,
  options,
  args = process.argv.slice(2),
  code = 2,
}: FlagsConfig<T>): Values<T> {
  const secretFlag = secretFlagIn(args);
  if (secretFlag !== undefined) {
    console.error(
      `${name}: ${secretFlag} is not accepted, since a secret on the command line shows in ps, shell history and CI logs; set the WEBHOOK_SECRET environment variable instead`,
    );
    process.exit(2);
  }
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

/** The secret-carrying flag among `args` (as --flag, --flag=value), up to a `--`; never its value. */
export function secretFlagIn(args: readonly string[]): string | undefined {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end))
    .map((word) => word.split('=')[0]!)
    .find((flag) => SECRET_FLAGS.includes(flag));
}

/**
 * parseFlags for a command that runs another beside its server (`mock`, `sandbox`): the words before `--` are its flags
 * and those after it the command, which must not be empty when `--` is given (a usage error).
 */
export function parseCommandLine<T extends Options>(config: FlagsConfig<T>): { flags: Values<T>; command: string[] } {
  const { name, usage, args = process.argv.slice(2), code = 2 } = config;
  const dashes = args.indexOf('--');
  // Note: only a `--` given as the last word leaves the command empty; with no `--` at all there is no command to ask for.
  if (dashes !== -1 && dashes === args.length - 1) {
    console.error(`${name}: a command must follow --\n${usage}`);
    process.exit(code);
  }
  const command = dashes === -1 ? [] : args.slice(dashes + 1);
  return { flags: parseFlags({ ...config, args: dashes === -1 ? args : args.slice(0, dashes) }), command };
}
