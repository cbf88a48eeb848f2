// Commands that hold subcommands (`merchant-payments <command>`, `merchant-payments webhook <command>`): help, the
// subcommand's name, and a usage error for anything else. Each subcommand's module is loaded only when it runs.
import type { CommandMain } from '@merchant-payments/contract/internal/shared/entry.js';

/** How to load one subcommand's main. */
export type Subcommand = () => Promise<CommandMain>;

/** What a command with subcommands needs: its name, its usage text and its subcommands; `extra` handles other flags. */
export interface GroupConfig {
  name: string;
  usage: string;
  commands: Record<string, Subcommand>;
  extra?: (flag: string) => number | undefined;
}

/**
 * The main of a command with subcommands: `--help`, `-h` or `help` prints its usage (exit 0), `help <command>` that
 * command's; a missing or unknown subcommand prints the usage to stderr (exit 2); otherwise the subcommand runs with
 * the remaining words.
 */
export function group({ name, usage, commands, extra }: GroupConfig): CommandMain {
  const find = (word: string | undefined) =>
    word !== undefined && Object.hasOwn(commands, word) ? commands[word] : undefined;
  return async (args) => {
    const [first, ...rest] = args;
    if (first === '--help' || first === '-h' || (first === 'help' && rest.length === 0)) {
      console.log(usage);
      return 0;
    }
    if (first === 'help') return group({ name, usage, commands })([...rest, '--help']);
    const handled = first === undefined ? undefined : extra?.(first);
    if (handled !== undefined) return handled;
    const command = find(first);
    if (!command) {
      const problem = first === undefined ? 'a command is required' : `unknown command "${first}"`;
      console.error(`${name}: ${problem}; the commands are ${Object.keys(commands).join(', ')}\n\n${usage}`);
      return 2;
    }
    return (await command())(rest);
  };
}
