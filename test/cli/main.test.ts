// The merchant-payments dispatcher, in-process: its help, version and usage errors; each subcommand's --help, the same
// through the dispatcher as through its alias, ending with its exit codes, and every flag and environment variable it
// names documented in docs/cli.md. bins.test.ts runs each command as a process.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import type { CommandMain } from '../../packages/contract/src/shared/entry.js';
import { main } from '../../packages/cli/src/main.js';
import { runMain, type MainResult } from './run-main.js';

const pkg = JSON.parse(readFileSync(path.join(root, 'packages/cli/package.json'), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
};
const docs = readFileSync(path.join(root, 'docs/cli.md'), 'utf8');

/** Runs the dispatcher in-process; resolves to its exit code and what it printed. */
const dispatch = (args: string[]) => runMain(main, args);

describe('merchant-payments', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists every subcommand, with the aliases, on --help, -h and help', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const { code, stdout } = await dispatch(args);
      expect(code, args.join(' ')).toBe(0);
      for (const command of ['sandbox', 'mock', 'conformance', 'webhook send', 'webhook listen', 'webhook secret'])
        expect(stdout).toContain(`  ${command} `);
      for (const alias of ['merchant-payments-sandbox', 'merchant-payments-mock', 'merchant-payments-conformance'])
        expect(stdout).toContain(alias);
      expect(stdout).toMatch(/Exit codes: 0 success; 1 failure .*; 2 usage error/s);
    }
  });

  it('prints the package version on --version and -V', async () => {
    expect(await dispatch(['--version'])).toEqual({ code: 0, stdout: pkg.version, stderr: '' });
    expect((await dispatch(['-V'])).stdout).toBe(pkg.version);
  });

  it.each([
    [[], 'merchant-payments: a command is required; the commands are sandbox, mock, conformance, webhook'],
    [['serve'], 'merchant-payments: unknown command "serve"; the commands are sandbox, mock, conformance, webhook'],
    [['--port', '4000'], 'merchant-payments: unknown command "--port"'],
    [['webhook'], 'merchant-payments webhook: a command is required; the commands are send, listen, secret'],
    [
      ['webhook', 'trigger'],
      'merchant-payments webhook: unknown command "trigger"; the commands are send, listen, secret',
    ],
  ])('exits 2 with the usage on stderr for %j', async (args, message) => {
    const { code, stdout, stderr } = await dispatch(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
    expect(stderr).toContain('usage: merchant-payments');
  });

  it('maps every bin to a file under bin/ of its package, and each package bin to the main its subcommand calls', () => {
    const binsOf = (name: string) =>
      (JSON.parse(readFileSync(path.join(root, 'packages', name, 'package.json'), 'utf8')) as { bin?: object }).bin;
    expect(binsOf('cli')).toEqual({
      'merchant-payments': './bin/merchant-payments.mjs',
      'merchant-payments-mock': './bin/merchant-payments-mock.mjs',
    });
    expect(binsOf('sandbox')).toEqual({ 'merchant-payments-sandbox': './bin/merchant-payments-sandbox.mjs' });
    expect(binsOf('conformance')).toEqual({
      'merchant-payments-conformance': './bin/merchant-payments-conformance.mjs',
    });
    const main = readFileSync(path.join(root, 'packages/cli/src/main.ts'), 'utf8');
    for (const [name, bin, command, imported] of [
      [
        'sandbox',
        'packages/sandbox/bin/merchant-payments-sandbox.mjs',
        'cli/command.js',
        '@merchant-payments/sandbox/internal/cli/command.js',
      ],
      ['mock', 'packages/cli/bin/merchant-payments-mock.mjs', 'mock/command.js', './mock/command.js'],
      [
        'conformance',
        'packages/conformance/bin/merchant-payments-conformance.mjs',
        'command.js',
        '@merchant-payments/conformance/internal/command.js',
      ],
    ] as const) {
      expect(readFileSync(path.join(root, bin), 'utf8')).toContain(`import { main } from '../dist/src/${command}';`);
      expect(main).toContain(`${name}: async () => (await import('${imported}')).main`);
    }
  });
});

describe("each subcommand's --help", () => {
  const helps = new Map<string, MainResult>();
  const subcommands = [
    ['sandbox'],
    ['sandbox', 'tenant'],
    ['mock'],
    ['conformance'],
    ['webhook', 'send'],
    ['webhook', 'listen'],
    ['webhook', 'secret'],
  ];
  const aliases: Record<string, () => Promise<CommandMain>> = {
    sandbox: async () => (await import('../../packages/sandbox/src/cli/command.js')).main,
    mock: async () => (await import('../../packages/cli/src/mock/command.js')).main,
    conformance: async () => (await import('../../packages/conformance/src/command.js')).main,
  };
  beforeAll(async () => {
    for (const words of subcommands) helps.set(words.join(' '), await runMain(main, [...words, '--help']));
    for (const [name, load] of Object.entries(aliases))
      helps.set(`alias ${name}`, await runMain(await load(), ['--help']));
    helps.set('help webhook listen', await runMain(main, ['help', 'webhook', 'listen']));
  });

  it.each(subcommands.map((words) => words.join(' ')))(
    'merchant-payments %s --help prints its usage and exit codes, and exits 0',
    (name) => {
      const { code, stdout } = helps.get(name)!;
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^usage: merchant-payments ${name}\\b`));
      expect(
        stdout
          .trimEnd()
          .split('\n\n')
          .find((paragraph) => paragraph.startsWith('Exit codes: 0 ')),
      ).toBeDefined();
    },
  );

  it.each(Object.keys(aliases))("merchant-payments %s --help is the alias's --help", (name) => {
    expect(helps.get(`alias ${name}`)).toEqual(helps.get(name));
    expect(helps.get(name)!.stdout).toContain(`   or: merchant-payments-${name} (the same flags)`);
  });

  it('merchant-payments help webhook listen prints what webhook listen --help prints', () => {
    expect(helps.get('help webhook listen')).toEqual(helps.get('webhook listen'));
  });

  it.each(subcommands.map((words) => words.join(' ')))(
    'docs/cli.md documents every flag and variable of %s',
    (name) => {
      const { stdout } = helps.get(name)!;
      const section = docs.split(/^## /m).find((part) => part.startsWith(`\`merchant-payments ${name}\``));
      expect(section, `a "## \`merchant-payments ${name}\`" section`).toBeDefined();
      const flags = [...new Set(stdout.match(/(?<![\w-])--[a-z][a-z-]*/g) ?? [])];
      const variables = [...new Set(stdout.match(/\b(?:PAYMENTS|WEBHOOK|MERCHANT_PAYMENTS)_[A-Z_]+\b/g) ?? [])];
      for (const flag of flags) expect(section, flag).toMatch(new RegExp(`(?<![\\w-])${flag}(?![\\w-])`));
      for (const variable of variables) expect(section, variable).toContain(variable);
      expect(section).toContain('| exit code | when |');
    },
  );
});
