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
