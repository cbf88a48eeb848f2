// merchant-payments sandbox tenant create|list|show|rotate|revoke, in-process (test/cli/run-main.ts) through the
// dispatcher, against a sandbox listening on a free port of 127.0.0.1: what each prints, the problems' details and
// exit codes, an unreachable sandbox, usage errors, and that the admin token is never printed.
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../packages/cli/src/main.js';
import { createSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { runMain, type MainResult } from '../cli/run-main.js';

const TOKEN = 'tenant-command-admin-token-0123456789abcdef';
let sandbox: Sandbox;
let url: string;
let closedUrl: string;
let bare: Sandbox;
let bareUrl: string;
const printed: string[] = [];

beforeAll(async () => {
  sandbox = createSandbox({ auth: 'issued', adminToken: TOKEN });
  ({ url } = await sandbox.listen({ port: 0 }));
  bare = createSandbox({ auth: 'issued' });
  ({ url: bareUrl } = await bare.listen({ port: 0 }));
  // Note: a port that was free a moment ago and has nothing listening on it.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(probe.address() as { port: number }).port}`;
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  await sandbox.close();
  await bare.close();
});

/** Runs `merchant-payments sandbox tenant <args>` with the admin token set (unless `env` says otherwise). */
async function tenant(args: string[], env: Record<string, string | undefined> = {}): Promise<MainResult> {
  const result = await runMain(main, ['sandbox', 'tenant', ...args], {
    SANDBOX_ADMIN_TOKEN: TOKEN,
    MERCHANT_PAYMENTS_SANDBOX_URL: undefined,
    ...env,
  });
  printed.push(result.stdout, result.stderr);
  return result;
}

const get = (path: string, headers: Record<string, string>) => fetch(`${url}${path}`, { headers });

describe('merchant-payments sandbox tenant', () => {
  it('create --format onboarding prints what to send the merchant: where, the credentials, which get in, and the limits', async () => {
    const { code, stdout, stderr } = await tenant([
      'create',
      '--format',
      'onboarding',
      '--public-url',
      'https://sandbox.payments.example/',
      '--url',
      url,
    ]);
    expect([code, stderr]).toEqual([0, '']);
    const id = /^Your sandbox tenant (ten_[A-Za-z0-9_-]{22})$/m.exec(stdout)?.[1];
    expect(id).toBeDefined();
    expect(stdout).toContain('https://sandbox.payments.example/payments');
    expect(stdout).toContain('https://sandbox.payments.example/merchant/v1/payments');
    expect(stdout).toContain('with the same credentials: https://sandbox.payments.example/_sandbox');
    expect(stdout).toContain('  requests: no rate limit');
    expect(stdout).toContain('  objects: 100,000 payments, and as many payouts and appeals');
    expect(stdout).toContain('  webhook endpoints: 20');
    expect(stdout).toContain('  events kept: 10,000, the oldest dropped first');
    expect(stdout).toContain('  test tenants: 50 at once, each deleted once unused for 86,400 seconds');
    expect(stdout).toContain(
      'each with credentials of its own: POST https://sandbox.payments.example/_sandbox/tenants',
    );
    expect(stdout).toContain('webhook endpoints may point at: public addresses only');
    const token = /access token \(Variant A\): (\S+)/.exec(stdout)?.[1];
    const [publicKey, secretKey] = [/public key \(Variant B\): +(\S+)/, /secret key \(Variant B\): +(\S+)/].map(
      (pattern) => pattern.exec(stdout)?.[1],
    );
    expect((await get('/payments', { authorization: `Bearer ${token}` })).status).toBe(200);
    expect(
      (await get('/merchant/v1/payments', { 'x-public-key': publicKey!, 'x-secret-key': secretKey! })).status,
    ).toBe(200);
  });

  it('refuses a --format it does not know, and --public-url without --format onboarding, naming the flag', async () => {
    const format = await tenant(['create', '--format', 'yaml', '--url', url]);
    expect([format.code, format.stderr.split('\n')[0]]).toEqual([
      2,
      'merchant-payments sandbox tenant: --format must be "json" or "onboarding", got "yaml"',
    ]);
    const alone = await tenant(['create', '--public-url', 'https://sandbox.payments.example', '--url', url]);
    expect([alone.code, alone.stderr.split('\n')[0]]).toEqual([
      2,
      'merchant-payments sandbox tenant: --public-url goes with create --format onboarding',
    ]);
  });

  it('create prints the new tenant as one line of JSON, whose credentials get in', async () => {
    const { code, stdout, stderr } = await tenant(['create', '--url', url]);
    expect([code, stderr]).toEqual([0, '']);
    expect(stdout.split('\n')).toHaveLength(1);
    const created = JSON.parse(stdout);
    expect(Object.keys(created).sort()).toEqual(['access_token', 'id', 'public_key', 'secret_key']);
    expect(created.id).toMatch(/^ten_[A-Za-z0-9_-]{22}$/);
    expect((await get('/payments', { authorization: `Bearer ${created.access_token}` })).status).toBe(200);
    expect(
      (await get('/merchant/v1/payments', { 'x-public-key': created.public_key, 'x-secret-key': created.secret_key }))
        .status,
    ).toBe(200);
  });

  it('takes the URL from MERCHANT_PAYMENTS_SANDBOX_URL when --url is not given, with or without a trailing slash', async () => {
    expect((await tenant(['create'], { MERCHANT_PAYMENTS_SANDBOX_URL: url })).code).toBe(0);
    expect((await tenant(['create', '--url', `${url}/`])).code).toBe(0);
  });

  it('list prints the tenants newest first as a JSON array, in pages of --limit after --starting-after', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(JSON.parse((await tenant(['create', '--url', url])).stdout).id);
    const all = await tenant(['list', '--url', url, '--limit', '100']);
    expect(all.code).toBe(0);
    const listed = JSON.parse(all.stdout) as { id: string; status: string; access_token?: string }[];
    expect(listed.slice(0, 3).map((t) => t.id)).toEqual([...ids].reverse());
    expect(listed.every((t) => t.status === 'active' && t.access_token === undefined)).toBe(true);
    const first = await tenant(['list', '--url', url, '--limit', '1']);
    expect(JSON.parse(first.stdout).map((t: { id: string }) => t.id)).toEqual([ids[2]]);
    expect(first.stderr).toBe(`merchant-payments sandbox tenant: more tenants follow: list --starting-after ${ids[2]}`);
    const next = await tenant(['list', '--url', url, '--limit', '2', '--starting-after', ids[2]!]);
    expect(JSON.parse(next.stdout).map((t: { id: string }) => t.id)).toEqual([ids[1], ids[0]]);
  });

  it('show prints the record; rotate prints the new credentials; revoke prints nothing and stops them', async () => {
    const created = JSON.parse((await tenant(['create', '--url', url])).stdout);
    const shown = await tenant(['show', created.id, '--url', url]);
    expect([shown.code, JSON.parse(shown.stdout)]).toEqual([
      0,
      expect.objectContaining({ id: created.id, public_key: created.public_key, status: 'active', rotated_at: null }),
    ]);

    const rotated = await tenant(['rotate', created.id, '--overlap', '60', '--url', url]);
    expect(rotated.code).toBe(0);
    const fresh = JSON.parse(rotated.stdout);
    expect(Object.keys(fresh).sort()).toEqual([
      'access_token',
      'id',
      'previous_credentials_expire_at',
      'public_key',
      'secret_key',
    ]);
    expect([fresh.id, fresh.public_key]).toEqual([created.id, created.public_key]);
    expect(Date.parse(fresh.previous_credentials_expire_at) - Date.now()).toBeGreaterThan(0);
    expect((await get('/payments', { authorization: `Bearer ${fresh.access_token}` })).status).toBe(200);
    expect((await get('/payments', { authorization: `Bearer ${created.access_token}` })).status).toBe(200);

    expect(await tenant(['revoke', created.id, '--url', url])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await get('/payments', { authorization: `Bearer ${fresh.access_token}` })).status).toBe(401);
    expect((await get('/payments', { authorization: `Bearer ${created.access_token}` })).status).toBe(401);
    expect(JSON.parse((await tenant(['show', created.id, '--url', url])).stdout).status).toBe('revoked');
    expect(await tenant(['rotate', created.id, '--url', url])).toEqual({
      code: 1,
      stdout: '',
      stderr: `merchant-payments sandbox tenant: Tenant ${created.id} was revoked; create a new tenant instead. (409 tenant_revoked)`,
    });
  });

  it("prints a problem's detail on stderr and exits 1: an unknown tenant, a wrong admin token, a sandbox without an admin API", async () => {
    expect(await tenant(['show', 'ten_AAAAAAAAAAAAAAAAAAAAAA', '--url', url])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'merchant-payments sandbox tenant: No tenant has the id ten_AAAAAAAAAAAAAAAAAAAAAA. (404 not_found)',
    });
    expect(
      await tenant(['list', '--url', url], { SANDBOX_ADMIN_TOKEN: 'not-the-admin-token-but-as-long-as-one' }),
    ).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "merchant-payments sandbox tenant: The admin token was refused: it is not this sandbox's SANDBOX_ADMIN_TOKEN. (401 unauthorized)",
    });
    const malformed = await tenant(['show', 'not-a-tenant-id', '--url', url]);
    expect([malformed.code, malformed.stderr]).toEqual([
      1,
      expect.stringMatching(/^merchant-payments sandbox tenant: .*\(422 validation_failed\)$/),
    ]);
    const off = await tenant(['create', '--url', bareUrl]);
    expect([off.code, off.stdout]).toEqual([1, '']);
    expect(off.stderr).toBe(
      `merchant-payments sandbox tenant: No operation of either variant is POST /_admin/tenants. (404 not_found); the sandbox at ${bareUrl} serves no admin API: start it with SANDBOX_ADMIN_TOKEN set`,
    );
  });

  it('says clearly that the sandbox cannot be reached, and exits 1', async () => {
    const { code, stdout, stderr } = await tenant(['list', '--url', closedUrl]);
    expect([code, stdout]).toEqual([1, '']);
    expect(stderr).toBe(
      `merchant-payments sandbox tenant: cannot reach the sandbox at ${closedUrl} (ECONNREFUSED); is it running, and is --url (or MERCHANT_PAYMENTS_SANDBOX_URL) its address?`,
    );
  });

  it.each([
    [[], 'a command is required; the commands are create, list, show, rotate, revoke'],
    [['remove', 'ten_AAAAAAAAAAAAAAAAAAAAAA'], 'unknown command "remove"'],
    [['show'], 'show needs a tenant id: merchant-payments sandbox tenant show <tenant id>'],
    [['revoke', '--url', 'http://127.0.0.1:1'], 'revoke needs a tenant id'],
    [['list', '--limit', '0'], '--limit must be a whole number from 1 to 100, got "0"'],
    [['list', '--limit', 'ten'], '--limit must be a whole number from 1 to 100, got "ten"'],
    [
      ['rotate', 'ten_AAAAAAAAAAAAAAAAAAAAAA', '--overlap', '604801'],
      '--overlap must be a whole number from 0 to 604800, got "604801"',
    ],
    [['create', '--limit', '5'], "Unknown option '--limit'"],
    [['create', '--url', 'ftp://host'], '--url must be an absolute http:// or https:// URL, got "ftp://host"'],
    [['create', '--token', TOKEN], "Unknown option '--token'"],
  ])('exits 2 with the usage on stderr for %j', async (args, message) => {
    const { code, stdout, stderr } = await tenant(args);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toContain(message);
    expect(stderr).toContain('usage: merchant-payments sandbox tenant create');
  });

  it('exits 2 naming SANDBOX_ADMIN_TOKEN when it is not set', async () => {
    const { code, stderr } = await tenant(['list', '--url', url], { SANDBOX_ADMIN_TOKEN: undefined });
    expect(code).toBe(2);
    expect(stderr).toContain(
      "merchant-payments sandbox tenant: SANDBOX_ADMIN_TOKEN must be set to the sandbox's admin token (it is never taken as a flag)",
    );
  });

  it('prints its usage on --help, through the dispatcher and the alias alike', async () => {
    const help = await tenant(['--help']);
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/^usage: merchant-payments sandbox tenant create/);
    expect(help.stdout).toContain('Exit codes: 0 success; 1 ');
    const { main: alias } = await import('../../packages/sandbox/src/cli/command.js');
    expect(await runMain(alias, ['tenant', 'rotate', '--help'])).toEqual(help);
  });

  it('never printed the admin token', () => {
    // Note: the --token case above passed the token on the command line, where parseArgs's message does not quote it.
    for (const text of printed) expect(text).not.toContain(TOKEN);
  });
});
