// npm's settings for the installs these tests make into new projects, as a user's would run but for the registry's
// stalls: npm waits five minutes for a stalled request by default, longer than a test's budget for the whole command,
// so a request is given up after a minute and tried again. And a runner of commands with those settings.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { randomBytes } from 'node:crypto';
export const npmInstallEnv = {
  NO_UPDATE_NOTIFIER: '1',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  npm_config_prefer_offline: 'true',
  npm_config_fetch_timeout: '60000',
  npm_config_fetch_retries: '4',
} as const;

/**
 * A user's shell for the commands a document shows: this run's environment without anything of the test run that
 * those commands read (the project's own variables, credentials, npm's settings from the npm that runs the tests, and
 * whatever `also` names), and npm's settings above.
 */
export function userShellEnv(also?: RegExp): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) =>
          !/^(MERCHANT_PAYMENTS_|PAYMENTS_|WEBHOOK_SECRET$|npm_(?!config_(registry|cache|userconfig)$))/.test(name) &&
          !also?.test(name),
      ),
    ),
    ...npmInstallEnv,
  };
}

/**
 * An operator's shell for a hosted sandbox: the user's shell without the sandbox's and PostgreSQL's variables of this run,
 * the database of `databaseUrl`, and a new admin token, as if from their secret store.
 */
export function operatorShellEnv(databaseUrl: string): NodeJS.ProcessEnv {
  return {
    ...userShellEnv(/^(SANDBOX_|DATABASE_URL$|PG)/),
    DATABASE_URL: databaseUrl,
    SANDBOX_ADMIN_TOKEN: randomBytes(32).toString('base64'),
  };
}

/** Runs a command to completion (killed after two minutes) with npm's settings above; its output is returned, never inherited. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
    env: { ...process.env, ...npmInstallEnv, ...env },
  });
  if (result.error) throw result.error;
  return result;
}

/** A finished command's stdout and stderr, for a failed assertion's message. */
export const output = (r: SpawnSyncReturns<string>) => `${r.stdout}\n${r.stderr}`;
