// npm's settings for the installs these tests make into new projects, as a user's would run but for the registry's
// stalls: npm waits five minutes for a stalled request by default, longer than a test's budget for the whole command,
// so a request is given up after a minute and tried again.
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
 * those commands read (the project's own variables, credentials, npm's settings from the npm that runs the tests),
 * and npm's settings above.
 */
export function userShellEnv(): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(
      Object.entries(process.env).filter(
        ([name]) =>
          !/^(MERCHANT_PAYMENTS_|PAYMENTS_|WEBHOOK_SECRET$|npm_(?!config_(registry|cache|userconfig)$))/.test(name),
      ),
    ),
    ...npmInstallEnv,
  };
}
