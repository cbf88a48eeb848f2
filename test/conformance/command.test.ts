// The merchant-payments-conformance command, its main run in this process against sandboxes listening on 127.0.0.1
// port 0: its exit codes, its reports, and that no credential reaches its output or its files. test/cli/bins.test.ts
// runs it as a process.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { main } from '../../packages/conformance/src/command.js';
import type { Sandbox } from '../../packages/sandbox/src/index.js';
import { runMain } from '../cli/run-main.js';
import { server } from './broken-servers.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-command-'));
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOKEN = 'tok_command_Secret_9f2';
const PUBLIC = 'pk_command_Public_7c1';
const SECRET = 'sk_command_Secret_3d8';
const WEBHOOK_SECRET = 'whsec_Y29tbWFuZC13ZWJob29rLXNlY3JldC0yNC1ieXRlcw==';
const clean = {
  PAYMENTS_ACCESS_TOKEN: undefined,
  PAYMENTS_PUBLIC_KEY: undefined,
  PAYMENTS_SECRET_KEY: undefined,
  WEBHOOK_SECRET: undefined,
};
const withA = { ...clean, PAYMENTS_ACCESS_TOKEN: TOKEN };
const withB = { ...clean, PAYMENTS_PUBLIC_KEY: PUBLIC, PAYMENTS_SECRET_KEY: SECRET };

const run = (args: string[], env: Record<string, string | undefined>) => runMain(main, args, env);

/** A sandbox (with a defect when named) listening on a free port of 127.0.0.1; its URL. */
async function listening(defect?: Parameters<typeof server>[0]): Promise<string> {
  const { sandbox, fetch }: { sandbox: Sandbox; fetch: (request: Request) => Promise<Response> } = server(defect);
  const http = createAdaptorServer({ fetch, overrideGlobalObjects: false }) as Server;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  closing.push(
    () => new Promise((resolve) => http.close(resolve)),
    () => sandbox.close(),
  );
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

describe('merchant-payments-conformance', () => {
  it('documents its flags, credentials and exit codes in --help', async () => {
    const { code, stdout } = await run(['--help'], clean);
    expect(code).toBe(0);
    for (const text of [
      '--variant a|b',
      '--base-url',
      '--only',
      '--seed',
      '--requests',
      '--report json|junit',
      '--sandbox',
      '--stateless',
      '--base-url "$MERCHANT_PAYMENTS_MOCK_URL" --stateless',
      '--webhook-port',
      '--webhook-wait',
      '--deadline',
      'webhooks: listens',
      'PAYMENTS_ACCESS_TOKEN',
      'PAYMENTS_SECRET_KEY',
      'WEBHOOK_SECRET',
      'Exit codes: 0',
      '--stateless with --sandbox',
    ])
      expect(stdout).toContain(text);
  });

  it.each([
    [['--variant', 'a', '--base-url', 'http://127.0.0.1:9'], clean, /Variant A needs PAYMENTS_ACCESS_TOKEN/],
    [
      ['--variant', 'b', '--base-url', 'http://127.0.0.1:9'],
      { ...clean, PAYMENTS_PUBLIC_KEY: PUBLIC },
      /PAYMENTS_PUBLIC_KEY and PAYMENTS_SECRET_KEY/,
    ],
    [['--variant', 'a', '--base-url', 'http://127.0.0.1:9', '--nope'], withA, /Unknown option '--nope'/],
    [['--variant', 'c', '--base-url', 'http://127.0.0.1:9'], withA, /--variant must be "a" or "b", got "c"/],
    [['--variant', 'a'], withA, /--base-url is required/],
    [
      ['--variant', 'a', '--base-url', 'http://127.0.0.1:9', '--only', 'fuzz,flow'],
      withA,
      /unknown stage "flow"; the stages are flows, fuzz, invariants, webhooks/,
    ],
    [
      ['--variant', 'a', '--base-url', 'http://127.0.0.1:9', '--requests', 'many'],
      withA,
      /--requests must be an integer/,
    ],
    [
      ['--variant', 'a', '--base-url', 'http://127.0.0.1:9', '--report', 'xml', 'out.xml'],
      withA,
      /--report takes json or junit/,
    ],
    [
      ['--variant', 'b', '--base-url', 'http://127.0.0.1:9/merchant/v1'],
      withB,
      /--base-url: baseUrl must not include \/merchant\/v1: .*Drop the prefix: pass "http:\/\/127\.0\.0\.1:9"\./,
    ],
    [
      ['--variant', 'a', '--base-url', 'http://127.0.0.1:9', '--deadline', 'soon'],
      withA,
      /--deadline takes seconds, such as 10 or 2\.5, got "soon"/,
    ],
    [
      ['--variant', 'b', '--base-url', 'http://127.0.0.1:9', '--stateless', '--sandbox'],
      withB,
      /--stateless and --sandbox cannot go together/,
    ],
    [
      ['--variant', 'b', '--base-url', 'http://127.0.0.1:9', '--stateless', '--only', 'webhooks'],
      withB,
      /stateless runs none of the stages chosen \(webhooks\): a server that keeps no state sends no webhooks/,
    ],
  ])('exits 2 on a usage error: %j', async (args, env, message) => {
    const { code, stderr } = await run(args, env);
    expect(stderr).toMatch(message);
    expect(code).toBe(2);
  });

  it('exits 0 against a listening sandbox of Variant B and writes JSON and JUnit reports with no credential in them', async () => {
    const url = await listening();
    const json = path.join(dir, 'pass', 'report.json');
    const xml = path.join(dir, 'pass', 'report.xml');
    const { code, stdout, stderr } = await run(
      [
        '--variant',
        'b',
        '--base-url',
        url,
        '--only',
        'fuzz',
        '--seed',
        '5',
        '--requests',
        '4',
        '--report',
        'json',
        json,
        '--report',
        'junit',
        xml,
      ],
      withB,
    );
    expect(stdout).toMatch(/^PASSED: \d+ of \d+ checks passed on 14 subjects of fuzz \(70 requests, seed 5/m);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8'));
    expect(report).toMatchObject({ variant: 'b', passed: true, seed: 5, requests: 70 });
    const junit = readFileSync(xml, 'utf8');
    expect(junit).toContain('<testsuite name="conformance fuzz (Variant B)"');
    expect(junit).not.toContain('<failure');
    for (const secret of [PUBLIC, SECRET])
      expect(`${stdout}${stderr}${readFileSync(json, 'utf8')}${junit}`).not.toContain(secret);
  });

  it('exits 0 with --only webhooks --sandbox against a listening sandbox, verifying with the secret from WEBHOOK_SECRET', async () => {
    const url = await listening();
    const json = path.join(dir, 'webhooks.json');
    const { code, stdout, stderr } = await run(
      [
        '--variant',
        'a',
        '--base-url',
        url,
        '--only',
        'webhooks',
        '--sandbox',
        '--webhook-port',
        '0',
        '--report',
        'json',
        json,
      ],
      { ...withA, WEBHOOK_SECRET },
    );
    expect(stdout).toMatch(/^PASSED: /m);
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      checks: { stage: string; check: string; judged: number }[];
    };
    expect(
      report.checks
        .filter((check) => check.check === 'webhook_signature')
        .reduce((sum, check) => sum + check.judged, 0),
    ).toBeGreaterThanOrEqual(3);
    expect(report.checks.some((check) => check.check === 'webhook_event_id_stable')).toBe(true);
    for (const secret of [TOKEN, WEBHOOK_SECRET, WEBHOOK_SECRET.slice('whsec_'.length)])
      expect(`${stdout}${stderr}${readFileSync(json, 'utf8')}`).not.toContain(secret);
  });

  it('exits 2 when the webhooks stage has no secret and no --sandbox to register one', async () => {
    const { code, stderr } = await run(
      ['--variant', 'a', '--base-url', 'http://127.0.0.1:9', '--only', 'webhooks', '--webhook-port', '0'],
      { ...withA, WEBHOOK_SECRET: undefined },
    );
    expect(stderr).toMatch(
      /needs the endpoint's signing secret: set WEBHOOK_SECRET \(or the webhookSecret option\), or pass --sandbox/,
    );
    expect(code).toBe(2);
  });

  it('exits 1 against a server that ignores missing credentials, naming the check and masking the token', async () => {
    const url = await listening('ignoredCredentials');
    const json = path.join(dir, 'fail.json');
    const xml = path.join(dir, 'fail.xml');
    const { code, stdout, stderr } = await run(
      [
        '--variant',
        'a',
        '--base-url',
        url,
        '--only',
        'fuzz',
        '--requests',
        '4',
        '--report',
        'json',
        json,
        '--report',
        'junit',
        xml,
      ],
      withA,
    );
    expect(code).toBe(1);
    expect(stdout).toContain('✗ fuzz · listPayments · ignored_auth');
    expect(stdout).toContain('rule:     A request without credentials gets 401');
    expect(stdout).toMatch(/curl: {5}curl -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/payments/);
    expect(stdout).toMatch(/^FAILED: /m);
    expect(readFileSync(xml, 'utf8')).toContain('<failure message="A request without credentials gets 401');
    expect(JSON.parse(readFileSync(json, 'utf8')).passed).toBe(false);
    expect(`${stdout}${stderr}${readFileSync(json, 'utf8')}${readFileSync(xml, 'utf8')}`).not.toContain(TOKEN);
  });

  it('exits 1, with a check that says so, when nothing answers at the base URL', async () => {
    const url = await listening();
    await closing.splice(0).reduce((done, close) => done.then(close), Promise.resolve() as Promise<unknown>);
    const { code, stdout } = await run(
      ['--variant', 'a', '--base-url', url, '--only', 'fuzz', '--requests', '1'],
      withA,
    );
    expect(stdout).toContain('request_completed');
    expect(code).toBe(1);
  });
});
