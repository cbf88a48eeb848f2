// deploy/: the systemd unit and the Dockerfile that docs/hosting.md shows, read as text (no systemd, Docker or process
// here). They run the sandbox's command with real flags and variables, as a user that is not root, with the secrets
// left to the environment, and stop it with SIGTERM and more time than its drain. The guide shows both as they are,
// keeps the operator's endpoints off the internet, and creates the database role in a block that its own test
// (test/package/hosting.test.ts) runs and whose role the instances there connect as.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SHUTDOWN_GRACE_MS } from '@merchant-payments/sandbox';
import { describe, expect, it } from 'vitest';
import { repositoryWebUrl } from '../../scripts/lib/getting-started.mjs';
import { root } from '../../scripts/lib/tools.mjs';
import { ENVIRONMENT_ONLY, SETTINGS } from '../../packages/sandbox/src/cli/config.js';
import { readmeSteps } from '../package/readme-blocks.js';

/** The sandbox's command, by its name or an installed project's bin path (not a folder named after it). */
const COMMAND_WORD = /(^|\/\.?bin\/)merchant-payments-sandbox$/;
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const dockerfile = read('deploy/Dockerfile');
const unit = read('deploy/merchant-payments-sandbox.service');
const guide = read('docs/hosting.md');
const web = repositoryWebUrl(JSON.parse(read('package.json')));

/** The longest a stop takes, in seconds: the drain's grace, then the 5 s the command gives the pool (command.ts). */
const STOP_WITHIN_S = SHUTDOWN_GRACE_MS / 1000 + 5;
const FLAGS = new Set<string>(SETTINGS.map((s) => s.flag));
const VARIABLES = new Set<string>(
  [...SETTINGS, ...ENVIRONMENT_ONLY].map((s) => s.variable).filter((v) => v.startsWith('SANDBOX_')),
);
/** A variable that holds a secret, which no image or unit may carry. */
const SECRET = /^DATABASE_URL$|TOKEN|PASSWORD|SECRET/i;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
const DEFAULT_PORT = SETTINGS.find((s) => s.flag === 'port')!.default;

interface Instruction {
  keyword: string;
  args: string;
}

/** The Dockerfile's instructions: comments dropped, continued lines joined. */
function instructions(text: string): Instruction[] {
  const found: Instruction[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    current += line;
    const match = /^\s*(\S+)\s*(.*?)\s*$/.exec(current);
    if (match) found.push({ keyword: match[1]!.toUpperCase(), args: match[2]! });
    current = '';
  }
  return found;
}

const docker = instructions(dockerfile);
const all = (keyword: string) => docker.filter((i) => i.keyword === keyword);
const last = (keyword: string) => all(keyword).at(-1);
/** An instruction's words: its JSON array (exec form), else its words split on white space (shell form). */
const words = (args: string): string[] => (args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/));

/** The names an ENV or ARG instruction sets (`A=1 B=2`, `A 1`, `A`). */
function namesSet(instruction: Instruction): string[] {
  if (instruction.keyword === 'ENV' && !/^[\w.-]+=/.test(instruction.args)) return [instruction.args.split(/\s+/)[0]!];
  return [...instruction.args.matchAll(/(?:^|\s)([A-Za-z_][\w.-]*)(?==|\s|$)/g)].map((m) => m[1]!);
}

/** A unit file's settings in `section`, each key with every value it is given. */
function unitSettings(text: string, section: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let current = '';
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || /^[#;]/.test(trimmed)) continue;
    const heading = /^\[(.+)\]$/.exec(trimmed);
    if (heading) current = heading[1]!;
    else if (current === section) {
      const [key, ...value] = trimmed.split('=');
      settings.set(key!.trim(), [...(settings.get(key!.trim()) ?? []), value.join('=').trim()]);
    }
  }
  return settings;
}

const service = unitSettings(unit, 'Service');
/** A [Service] setting given once, or undefined: given twice, the last would win, which the file should not leave to chance. */
const once = (key: string) => {
  const values = service.get(key) ?? [];
  return values.length === 1 ? values[0] : undefined;
};
/** ExecStart='s words, its prefixes (`-`, `@`, `+`, …) taken off. */
const execStart = (once('ExecStart') ?? '').replace(/^[-@:+!]+/, '').split(/\s+/);

/** systemd's time span in seconds: `30`, `30s`, `1min 30s`, `2m`. */
function seconds(span: string): number {
  const units: Record<string, number> = { '': 1, s: 1, sec: 1, m: 60, min: 60, h: 3600 };
  let total = 0;
  for (const part of span.trim().split(/\s+/)) {
    const match = /^(\d+)([a-z]*)$/.exec(part);
    if (!match || !(match[2]! in units)) throw new Error(`not a time span: ${span}`);
    total += Number(match[1]) * units[match[2]!]!;
  }
  return total;
}

/** The words after the sandbox's command in `argv` up to a shell separator, or undefined when it is not in it. */
function argsOfCommand(argv: readonly string[]): string[] | undefined {
  const at = argv.findIndex((word) => COMMAND_WORD.test(word));
  if (at < 0) return undefined;
  const end = argv.findIndex((word, i) => i > at && /^(--|&&?|\|\|?|;|>.*)$/.test(word));
  return argv.slice(at + 1, end < 0 ? undefined : end);
}

/** The long flags among a command's words, without their values. */
const flagsIn = (args: readonly string[]) =>
  args.filter((w) => w.startsWith('--')).map((w) => w.slice(2).split('=')[0]!);

/** A flag's value among a command's words (`--name value` or `--name=value`). */
function flagValue(args: readonly string[], name: string): string | undefined {
  for (const [i, word] of args.entries()) {
    if (word === `--${name}`) return args[i + 1];
    if (word.startsWith(`--${name}=`)) return word.slice(name.length + 3);
  }
  return undefined;
}

/** Every fenced block of a Markdown text, with its language. */
const fences = (markdown: string) =>
  [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, content: m[2]! }));

/** Every command line of the guide's sh blocks, continued lines joined. */
const shellLines = fences(guide)
  .filter((f) => f.lang === 'sh')
  .flatMap((f) => f.content.replace(/\\\n/g, ' ').split('\n'));

const sandboxVariables = (text: string) => [...text.matchAll(/\bSANDBOX_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0]);

describe('deploy/Dockerfile', () => {
  const cmd = words(last('CMD')?.args ?? '[]');
  const sandboxArgs = argsOfCommand(cmd);

  it('builds on Node 20, pinned by a tag', () => {
    const from = words(last('FROM')!.args).find((w) => !w.startsWith('--'))!;
    expect(from).toMatch(/^node:20(\.\d+){0,2}(-[a-z]+)*(@sha256:[0-9a-f]{64})?$/);
  });

  it('installs the tarballs the API team hands out with pg and node-pg-migrate, without dev dependencies or scripts', () => {
    expect(all('COPY').map((c) => c.args)).toContainEqual(
      expect.stringMatching(/merchant-payments-contract-\*\.tgz merchant-payments-sandbox-\*\.tgz/),
    );
    const installs = all('RUN').filter((r) => /\bnpm (install|i|ci)\b/.test(r.args));
    expect(installs).toHaveLength(1);
    const install = words(installs[0]!.args);
    for (const word of [
      '--omit=dev',
      '--ignore-scripts',
      './merchant-payments-contract-*.tgz',
      './merchant-payments-sandbox-*.tgz',
      'pg',
      'node-pg-migrate',
    ])
      expect(install, word).toContain(word);
  });

  it('runs as a user that is not root', () => {
    const user = last('USER');
    expect(user).toBeDefined();
    expect(['root', '0'], user!.args).not.toContain(user!.args.split(':')[0]);
    expect(docker.indexOf(user!)).toBeLessThan(docker.indexOf(last('CMD')!));
  });

  it('holds no secret: no ENV or ARG sets DATABASE_URL, an admin token or any token, password or secret', () => {
    const names = [...all('ENV'), ...all('ARG')].flatMap(namesSet);
    expect(names.filter((name) => SECRET.test(name))).toEqual([]);
    expect(docker.filter((i) => /\b(DATABASE_URL|\w*(TOKEN|PASSWORD|SECRET)\w*)=/i.test(i.args))).toEqual([]);
  });

  it('runs merchant-payments-sandbox listening beyond the loopback, on the port it exposes', () => {
    expect(sandboxArgs, `CMD ${cmd.join(' ')}`).toBeDefined();
    const env = all('ENV').flatMap((i) => [...i.args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1], m[2]] as const));
    const host = flagValue(sandboxArgs!, 'host') ?? env.find(([name]) => name === 'SANDBOX_HOST')?.[1];
    expect(host).toBeDefined();
    expect(LOOPBACK).not.toContain(host);
    const port = flagValue(sandboxArgs!, 'port') ?? env.find(([name]) => name === 'SANDBOX_PORT')?.[1] ?? DEFAULT_PORT;
    expect(all('EXPOSE').flatMap((e) => words(e.args))).toContain(port);
  });

  it('is stopped with SIGTERM, and its health check (if any) asks /healthz', () => {
    expect(last('STOPSIGNAL')?.args).toBe('SIGTERM');
    for (const check of all('HEALTHCHECK')) expect(check.args).toContain('/healthz');
  });
});

describe('deploy/merchant-payments-sandbox.service', () => {
  it('runs merchant-payments-sandbox by its absolute path, as a user that is not root', () => {
    expect(execStart[0]).toMatch(/^\//);
    expect(execStart[0]).toMatch(COMMAND_WORD);
    expect(once('User')).toMatch(/^\S+$/);
    expect(['root', '0']).not.toContain(once('User'));
  });

  it('takes the settings and the secrets from environment files, and sets none of the secrets itself', () => {
    const files = service.get('EnvironmentFile') ?? [];
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(file).toMatch(/^-?\//);
    const set = (service.get('Environment') ?? []).flatMap((e) => [...e.matchAll(/(\w+)=/g)].map((m) => m[1]!));
    expect(set.filter((name) => SECRET.test(name))).toEqual([]);
    expect(unit).not.toMatch(/\b(DATABASE_URL|SANDBOX_ADMIN_TOKEN)=/);
  });

  it('listens beyond the loopback, for the load balancer', () => {
    const fromEnvironment = (service.get('Environment') ?? [])
      .flatMap((e) => [...e.matchAll(/\bSANDBOX_HOST=(\S+)/g)])
      .map((m) => m[1]);
    const host = flagValue(argsOfCommand(execStart) ?? [], 'host') ?? fromEnvironment.at(-1);
    expect(host).toBeDefined();
    expect(LOOPBACK).not.toContain(host);
  });

  it(`restarts on failure, and stops with SIGTERM and more time than the sandbox's stop (${STOP_WITHIN_S} s)`, () => {
    expect(once('Restart')).toBe('on-failure');
    expect(once('KillSignal')).toBe('SIGTERM');
    expect(seconds(once('TimeoutStopSec') ?? '0')).toBeGreaterThan(STOP_WITHIN_S);
  });
});

describe('what deploy/ and docs/hosting.md give merchant-payments-sandbox', () => {
  const passed = {
    'deploy/Dockerfile': argsOfCommand(words(last('CMD')?.args ?? '[]')) ?? [],
    'deploy/merchant-payments-sandbox.service': argsOfCommand(execStart) ?? [],
    'docs/hosting.md': shellLines.flatMap((line) => {
      const args = argsOfCommand(line.trim().split(/\s+/));
      return args && args[0] !== 'tenant' ? args : [];
    }),
  };

  it.each(Object.entries(passed))('%s passes only flags the command has', (_, args) => {
    expect(flagsIn(args).filter((flag) => !FLAGS.has(flag))).toEqual([]);
  });

  it.each([
    ['deploy/Dockerfile', dockerfile],
    ['deploy/merchant-payments-sandbox.service', unit],
    ['docs/hosting.md', guide],
  ])('%s names only SANDBOX_* variables the command reads', (_, text) => {
    expect(sandboxVariables(text).filter((name) => !VARIABLES.has(name))).toEqual([]);
  });

  it('the guide passes flags to the command, and names its variables (so that the checks above check something)', () => {
    expect(flagsIn(passed['docs/hosting.md'])).toContain('port');
    expect(sandboxVariables(guide)).toContain('SANDBOX_AUTH');
  });
});

describe('docs/hosting.md', () => {
  it.each(['Dockerfile', 'merchant-payments-sandbox.service'])('shows deploy/%s as it is, and links it', (name) => {
    const content = read(`deploy/${name}`);
    expect(fences(guide).map((f) => f.content)).toContain(content);
    expect(guide).toContain(`(${web}/blob/main/deploy/${name})`);
  });

  it("gives a container more time to stop than the sandbox's stop takes", () => {
    const runs = shellLines.filter((line) => /\bdocker run\b/.test(line));
    expect(runs.length).toBeGreaterThan(0);
    for (const run of runs) expect(Number(flagValue(run.split(/\s+/), 'stop-timeout'))).toBeGreaterThan(STOP_WITHIN_S);
  });

  it("keeps the operator's endpoints (/_admin, /metrics, /readyz) off the internet in the nginx example", () => {
    const nginx = fences(guide).filter((f) => f.lang === 'nginx');
    expect(nginx).toHaveLength(1);
    const locations = [...nginx[0]!.content.matchAll(/location\s+(=|~\*?|\^~)?\s*(\S+)\s*\{([^}]*)\}/g)].map((m) => ({
      kind: m[1] ?? '',
      pattern: m[2]!,
      body: m[3]!,
    }));
    const denied = (url: string) =>
      locations.some(
        ({ kind, pattern, body }) =>
          /\bdeny all;/.test(body) &&
          (kind === '='
            ? url === pattern
            : kind.startsWith('~')
              ? new RegExp(pattern, kind === '~*' ? 'i' : '').test(url)
              : url.startsWith(pattern)),
      );
    for (const url of ['/_admin', '/_admin/tenants', '/metrics', '/readyz']) expect(denied(url), url).toBe(true);
    for (const url of ['/payments', '/merchant/v1/payments', '/_sandbox/clock/advance'])
      expect(denied(url), url).toBe(false);
  });

  it('creates a role that is no superuser and owns no database, in a block its test runs, which the instances use', () => {
    const steps = readmeSteps(guide).flatMap((step) => (step.kind === 'command' ? [step] : []));
    const creates = steps.filter((step) => step.script.includes('CREATE ROLE'));
    expect(creates).toHaveLength(1);
    expect(creates[0]!.mode).toBe('run');
    const sql = creates[0]!.script;
    expect(sql).toMatch(/CREATE ROLE sandbox LOGIN .*\bNOSUPERUSER\b/);
    for (const power of ['SUPERUSER', 'CREATEDB', 'CREATEROLE', 'REPLICATION', 'BYPASSRLS'])
      expect(sql, power).not.toMatch(new RegExp(`(?<!NO)${power}\\b`));
    expect(sql).not.toMatch(/\bOWNER\b|\bGRANT ALL\b|\bWITH (ADMIN|GRANT) OPTION\b/i);
    const instances = steps.filter((step) => step.mode === 'background');
    expect(instances.length).toBeGreaterThan(0);
    for (const instance of instances) expect(instance.script).toContain('. ./secrets.env');
  });
});
