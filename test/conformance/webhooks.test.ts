// The webhooks stage against the sandbox (it must pass) and against sandboxes whose deliveries carry one seeded defect
// (it must fail, naming the check): the kit's requests go in-process through sandbox.fetch, while the sandbox delivers
// over real HTTP to the kit's listener on 127.0.0.1 at a free port.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  runConformance,
  toJunit,
  formatText,
  type ConformanceOptions,
  type ConformanceReport,
} from '../../packages/conformance/src/index.js';
import { createSandboxControlClient, type Sandbox } from '../../packages/sandbox/src/index.js';
import { server, type Defect } from './broken-servers.js';

const credentials = {
  a: { accessToken: 'tok_webhooks_Secret_A1' },
  b: { publicKey: 'pk_webhooks_Public_B1', secretKey: 'sk_webhooks_Secret_B1' },
} as const;
const GIVEN_SECRET = 'whsec_d2ViaG9va3MtY29uZm9ybWFuY2Utc2VjcmV0LTMyYnl0ZXM=';
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
});

async function webhooks(
  variant: 'a' | 'b',
  defect?: Defect,
  options: Partial<ConformanceOptions> = {},
): Promise<ConformanceReport> {
  const { sandbox, fetch } = server(defect);
  open.push(sandbox);
  return runConformance({
    variant,
    baseUrl: 'http://sandbox.test',
    credentials: credentials[variant],
    only: ['webhooks'],
    sandbox: true,
    webhookPort: 0,
    fetch,
    ...options,
  });
}
const failing = (report: ConformanceReport) =>
  [...new Set(report.checks.filter((check) => !check.ok).map((check) => check.check))].sort();
const judged = (report: ConformanceReport, check: string) =>
  report.checks.filter((result) => result.check === check).reduce((sum, result) => sum + result.judged, 0);

describe('the webhooks stage', () => {
  it.each(['a', 'b'] as const)(
    'passes the sandbox of Variant %s, with retries provoked and every status change matched',
    async (variant) => {
      const report = await webhooks(variant);
      expect(report.checks.filter((check) => !check.ok)).toEqual([]);
      expect(report.passed).toBe(true);
      for (const check of ['webhook_signature', 'webhook_body_conformance', 'webhook_headers_conformance'])
        expect(judged(report, check), check).toBeGreaterThanOrEqual(3);
      // The first delivery of two events was answered 503; each came again with its X-Event-ID.
      expect(judged(report, 'webhook_event_id_stable')).toBeGreaterThanOrEqual(2);
      // The cancel, and the processed payment's status when retrieved after the clock moved.
      expect(judged(report, 'webhook_for_status_change')).toBeGreaterThanOrEqual(2);
      expect(report.checks.find((check) => check.check === 'webhook_endpoint_registered')?.ok).toBe(true);
      expect(report.skipped).toEqual([]);
    },
  );

  it.each([
    ['badSignature', 'webhook_signature', /no_matching_signature/],
    ['newEventIdOnRetry', 'webhook_event_id_stable', /attempt 2 of one event .* has X-Event-ID evt_retry000001/],
    [
      'missingWebhook',
      'webhook_for_status_change',
      /payment \S+ was seen canceled through the API, but no event with that status arrived within 2000 ms/,
    ],
  ] as const)('fails a server with the delivery defect %s on %s alone', async (defect, check, detail) => {
    // Note: long enough for a loaded machine to deliver what is there; only the missing webhook waits it out.
    const report = await webhooks('b', defect, { webhookWaitMs: 2000 });
    expect(report.passed).toBe(false);
    expect(failing(report)).toEqual([check]);
    const failure = report.checks.find((result) => result.check === check && !result.ok);
    expect(failure?.detail).toMatch(detail);
    expect(failure?.rule).toBe(report.checks.find((result) => result.check === check)?.rule);
  });

  it('shows a failed delivery with its headers and signature, and no secret anywhere in the reports', async () => {
    const report = await webhooks('a', 'badSignature', { webhookSecret: GIVEN_SECRET });
    const failure = report.checks.find((check) => check.check === 'webhook_signature' && !check.ok);
    expect(failure).toMatchObject({
      stage: 'webhooks',
      operation: 'payment.status_changed',
      request: { method: 'POST', headers: { 'x-signature': expect.stringMatching(/^v1,/) } },
    });
    expect(failure?.request?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    expect(failure?.request?.body).toContain('"type":"payment.status_changed"');
    const written = JSON.stringify(report) + toJunit(report) + formatText(report);
    for (const secret of [GIVEN_SECRET, GIVEN_SECRET.slice('whsec_'.length), credentials.a.accessToken])
      expect(written).not.toContain(secret);
  });

  it('keeps the secret the sandbox generated out of the reports', async () => {
    const { sandbox, fetch } = server();
    open.push(sandbox);
    const generated: string[] = [];
    // Note: the generated secret is taken from the control answer the kit reads, to look for it in the report.
    const spying = async (request: Request) => {
      const response = await fetch(request);
      if (request.method === 'POST' && new URL(request.url).pathname === '/_sandbox/webhook-endpoints')
        generated.push(((await response.clone().json()) as { data: { secret: string } }).data.secret);
      return response;
    };
    const report = await runConformance({
      variant: 'b',
      baseUrl: 'http://sandbox.test',
      credentials: credentials.b,
      only: ['webhooks'],
      sandbox: true,
      webhookPort: 0,
      fetch: spying,
    });
    expect(report.passed).toBe(true);
    expect(generated).toHaveLength(1);
    const written = JSON.stringify(report) + toJunit(report) + formatText(report);
    expect(written).not.toContain(generated[0]);
    expect(written).not.toContain(credentials.b.secretKey);
  });

  it('refuses to run without a secret and without --sandbox, naming where the secret comes from', async () => {
    const { sandbox, fetch } = server();
    open.push(sandbox);
    const saved = process.env.WEBHOOK_SECRET;
    delete process.env.WEBHOOK_SECRET;
    try {
      await expect(
        runConformance({
          variant: 'a',
          baseUrl: 'http://sandbox.test',
          credentials: credentials.a,
          only: ['webhooks'],
          webhookPort: 0,
          fetch,
        }),
      ).rejects.toThrow(/set WEBHOOK_SECRET \(or the webhookSecret option\), or pass --sandbox/);
      await expect(
        runConformance({
          variant: 'a',
          baseUrl: 'http://sandbox.test',
          credentials: credentials.a,
          only: ['webhooks'],
          webhookPort: 0,
          webhookSecret: 'whsec_short',
          fetch,
        }),
      ).rejects.toThrow(/webhook secret .* is not usable: .*malformed/);
    } finally {
      if (saved !== undefined) process.env.WEBHOOK_SECRET = saved;
    }
  });

  it('without --sandbox, judges what arrives and names the retry check it could not make', async () => {
    const { sandbox, fetch } = server();
    open.push(sandbox);
    // The merchant registered the kit's address and secret with the server beforehand, as in a dashboard.
    const port = await freePort();
    const control = createSandboxControlClient({
      baseUrl: 'http://sandbox.test',
      ...credentials.b,
      fetch,
      retry: false,
    });
    expect(
      (
        await control.POST('/_sandbox/webhook-endpoints', {
          body: { url: `http://127.0.0.1:${port}/hooks`, secret: GIVEN_SECRET },
        })
      ).response.status,
    ).toBe(201);
    const report = await runConformance({
      variant: 'b',
      baseUrl: 'http://sandbox.test',
      credentials: credentials.b,
      only: ['webhooks'],
      webhookPort: port,
      webhookSecret: GIVEN_SECRET,
      webhookWaitMs: 2000,
      fetch,
    });
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    expect(judged(report, 'webhook_signature')).toBeGreaterThanOrEqual(1);
    expect(judged(report, 'webhook_for_status_change')).toBe(1);
    expect(report.skipped).toEqual([
      {
        stage: 'webhooks',
        subject: 'webhook_event_id_stable',
        reason: expect.stringMatching(
          /answered 503 to the first delivery of 1 event\(s\), but no retry arrived within 2000 ms \(without --sandbox/,
        ),
      },
    ]);
  });
});

/** A port of 127.0.0.1 that was free a moment ago. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
