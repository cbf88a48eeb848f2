import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderPage, target } from '../../scripts/sandbox-config.mjs';
import { readSettings, SETTINGS, settingOptions } from '../../packages/sandbox/src/cli/config.js';

describe("the sandbox command's settings (src/sandbox/cli/config.ts)", () => {
  it('docs/cli.md holds the table rendered from them (npm run regenerate rewrites it)', async () => {
    const page = readFileSync(target, 'utf8');
    expect(page).toBe(await renderPage(page));
    for (const s of SETTINGS) expect(page).toContain(`| \`${s.variable}\``);
  });

  it('takes the flag over its variable, the variable when no flag is given, and splits a list variable on commas', () => {
    const { values, source } = readSettings(
      { port: '5000', 'webhook-url': ['http://127.0.0.1:9/a'] },
      {
        SANDBOX_PORT: '6000',
        SANDBOX_RATE_LIMIT: '50',
        SANDBOX_ALLOW_WEBHOOK_HOSTS: ' 10.0.0.0/8, hooks.internal ,',
        SANDBOX_WEBHOOK_URLS: 'http://127.0.0.1:9/b',
      },
    );
    expect(values.port).toBe('5000');
    expect(source.port).toBe('--port');
    expect(values['rate-limit']).toBe('50');
    expect(source['rate-limit']).toBe('SANDBOX_RATE_LIMIT');
    expect(values['allow-webhook-host']).toEqual(['10.0.0.0/8', 'hooks.internal']);
    expect(values['webhook-url']).toEqual(['http://127.0.0.1:9/a']);
    expect(values.clock).toBeUndefined();
    expect(source.clock).toBe('--clock');
  });

  it('reads a value-less flag as the value it stands for, and its variable as written', () => {
    expect(readSettings({ 'no-dashboard': true }, { SANDBOX_DASHBOARD: 'on' })).toMatchObject({
      values: { 'no-dashboard': 'off' },
      source: { 'no-dashboard': '--no-dashboard' },
    });
    expect(readSettings({}, { SANDBOX_DASHBOARD: 'off' })).toMatchObject({
      values: { 'no-dashboard': 'off' },
      source: { 'no-dashboard': 'SANDBOX_DASHBOARD' },
    });
    expect(readSettings({}, {}).values['no-dashboard']).toBeUndefined();
    expect(settingOptions()['no-dashboard']).toEqual({ type: 'boolean' });
  });

  it('ignores an empty variable, as if unset', () => {
    expect(readSettings({}, { SANDBOX_MAX_OBJECTS: '' }).values['max-objects']).toBeUndefined();
  });

  it('gives parseArgs one string option per setting, repeated where the setting is a list', () => {
    const options = settingOptions();
    expect(Object.keys(options)).toEqual(SETTINGS.map((s) => s.flag));
    expect(options['allow-webhook-host']).toEqual({ type: 'string', multiple: true });
    expect(options.port).toEqual({ type: 'string', short: 'p' });
  });
});
