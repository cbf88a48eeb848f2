// The sandbox command's usage errors, run in-process: each names the flag or the variable it came from, and exits 2
// before anything listens.
import { describe, expect, it } from 'vitest';
import { main } from '../../packages/sandbox/src/cli/command.js';
import { runMain } from '../cli/run-main.js';

const run = (args: string[], env: Record<string, string | undefined> = {}) => runMain(main, args, env);

describe('merchant-payments sandbox: usage errors', () => {
  it('names a bad --webhook-url and quotes it, with exit 2', async () => {
    const { code, stderr } = await run(['--port', '0', '--webhook-url', 'localhost:3000/hooks']);
    expect(code).toBe(2);
    expect(stderr).toContain('--webhook-url must be an absolute http:// or https:// URL, got "localhost:3000/hooks"');
    expect(stderr).not.toContain('webhookUrls');
  });

  it('names the variable when the bad value came from the environment', async () => {
    const auth = await run(['--port', '0'], { SANDBOX_AUTH: 'closed' });
    expect([auth.code, auth.stderr]).toEqual([
      2,
      expect.stringContaining('SANDBOX_AUTH must be "open" or "issued", got "closed"'),
    ]);
    const tenants = await run(['--port', '0'], { SANDBOX_MAX_TENANTS: '1.5' });
    expect([tenants.code, tenants.stderr]).toEqual([
      2,
      expect.stringContaining('SANDBOX_MAX_TENANTS must be a whole number from 1, got "1.5"'),
    ]);
    const urls = await run(['--port', '0'], { SANDBOX_WEBHOOK_URLS: 'http://127.0.0.1:9/a,ftp://x' });
    expect([urls.code, urls.stderr]).toEqual([
      2,
      expect.stringContaining('SANDBOX_WEBHOOK_URLS must be an absolute http:// or https:// URL, got "ftp://x"'),
    ]);
  });

  it('names a bad budget or database bound, from its flag or its variable', async () => {
    for (const [args, env, says] of [
      [['--merchant-concurrency', '0'], {}, '--merchant-concurrency must be a whole number from 1, got "0"'],
      [
        [],
        { SANDBOX_MERCHANT_QUEUE_MS: '2s' },
        'SANDBOX_MERCHANT_QUEUE_MS must be a whole number of milliseconds from 1, got "2s"',
      ],
      [
        [],
        { SANDBOX_MERCHANT_QUEUE_LENGTH: '-3' },
        'SANDBOX_MERCHANT_QUEUE_LENGTH must be a whole number from 1, got "-3"',
      ],
      [['--pool-size', '2.5'], {}, '--pool-size must be a whole number from 1, got "2.5"'],
      [
        [],
        { SANDBOX_STATEMENT_TIMEOUT: '3000000000' },
        'SANDBOX_STATEMENT_TIMEOUT must be a whole number of milliseconds from 1, got "3000000000"',
      ],
      [['--lock-timeout', 'soon'], {}, '--lock-timeout must be a whole number of milliseconds from 1, got "soon"'],
    ] as const) {
      const { code, stderr } = await run(['--port', '0', ...args], env);
      expect([code, stderr]).toEqual([2, expect.stringContaining(says)]);
    }
  });

  it('lets a flag win over its variable', async () => {
    const { code, stderr } = await run(['--port', '0', '--event-retention', 'lots'], { SANDBOX_EVENT_RETENTION: '50' });
    expect([code, stderr]).toEqual([
      2,
      expect.stringContaining('--event-retention must be a whole number of events from 1, got "lots"'),
    ]);
  });

  it('refuses a short SANDBOX_ADMIN_TOKEN without quoting it', async () => {
    const { code, stderr } = await run(['--port', '0'], { SANDBOX_ADMIN_TOKEN: 'too-short-token' });
    expect(code).toBe(2);
    expect(stderr).toContain('SANDBOX_ADMIN_TOKEN must be at least 32 characters');
    expect(stderr).not.toContain('too-short-token');
  });

  it('refuses --tenant-idle-timeout 0 and --auth with another word', async () => {
    const idle = await run(['--port', '0', '--tenant-idle-timeout', '0']);
    expect([idle.code, idle.stderr]).toEqual([
      2,
      expect.stringContaining('--tenant-idle-timeout must be a whole number of seconds from 1, got "0"'),
    ]);
    const auth = await run(['--port', '0', '--auth', 'token']);
    expect([auth.code, auth.stderr]).toEqual([
      2,
      expect.stringContaining('--auth must be "open" or "issued", got "token"'),
    ]);
  });
});
