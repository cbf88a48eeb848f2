// Flags for this package's commands: node:util parseArgs, with --help and malformed flags handled the same way everywhere.
import { parseArgs } from 'node:util';

/**
 * Parses `args` with `options` plus --help/-h. On --help prints `usage` and exits 0; on an unknown or malformed flag
 * prints `<name>: <problem>` and the usage to stderr and exits `code` (default 2, a usage error).
 */
export function parseFlags({ name, usage, options, args = process.argv.slice(2), code = 2 }) {
  let values;
  try {
    ({ values } = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    console.error(`${name}: ${error.message}\n${usage}`);
    process.exit(code);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  return values;
}
