// The kit's HTTP against servers on 127.0.0.1 that misbehave: redirects to another origin, an endless body, no answer
// at all, slow answers past the run's deadline; and the Variant B base URL the client refuses.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConformanceUsageError, runConformance, type ConformanceReport } from '../../packages/conformance/src/index.js';
import { silentServer } from './silent-server.js';

const credentials = { publicKey: 'pk_transport_Public_5e1', secretKey: 'sk_transport_Secret_8a4' };
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** A node:http server on a free port of `host` (127.0.0.1 unless named); its origin. */
async function serve(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
  host = '127.0.0.1',
): Promise<string> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  closing.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

const failures = (report: ConformanceReport, check: string) =>
  report.checks.filter((result) => result.check === check && !result.ok);

describe("the kit's HTTP", () => {
  it.each([302, 307])('does not follow a %i to another origin, so no credential or body reaches it', async (status) => {
    const reached: { method?: string; headers: IncomingMessage['headers'] }[] = [];
    const other = await serve((request, response) => {
      reached.push({ method: request.method, headers: request.headers });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    const base = await serve((request, response) =>
      response.writeHead(status, { location: `${other}/stolen${request.url}` }).end(),
    );
    const report = await runConformance({
      variant: 'b',
      baseUrl: base,
      credentials,
      only: ['fuzz', 'invariants'],
      requests: 2,
      timeoutMs: 5000,
    });
    expect(reached).toEqual([]);
    const [failure] = failures(report, 'status_code_conformance');
    expect(failure?.detail).toContain(`the ${status} to ${other}/stolen/merchant/v1/`);
    expect(failure?.detail).toContain(
      `it leaves ${base} for ${other}, and credentials are never sent outside the API's origin`,
    );
    expect(report.checks.some((check) => check.stage === 'invariants')).toBe(true);
  });

  it('follows a redirect within the origin of --base-url, credentials included', async () => {
    const moved: (string | undefined)[] = [];
    const base = await serve((request, response) => {
      if (!request.url?.startsWith('/moved'))
        return void response.writeHead(307, { location: `/moved${request.url}` }).end();
      moved.push(request.headers['x-secret-key'] as string | undefined);
      response.writeHead(404, { 'content-type': 'application/problem+json' }).end('{}');
    });
    await runConformance({ variant: 'b', baseUrl: base, credentials, only: ['fuzz'], requests: 1, timeoutMs: 5000 });
    expect(moved.length).toBeGreaterThan(10);
    expect(moved).toContain(credentials.secretKey);
  });

  it('reads no more of an endless body than its cap, and fails request_completed saying so', async () => {
    let ended = 0;
    const chunk = Buffer.alloc(16 * 1024, 'x');
    const base = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      const write = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on('drain', write);
      response.on('close', () => void (ended += 1));
      write();
    });
    const report = await runConformance({
      variant: 'b',
      baseUrl: base,
      credentials,
      only: ['fuzz'],
      requests: 1,
      timeoutMs: 10_000,
      maxResponseBytes: 64 * 1024,
    });
    const [failure] = failures(report, 'request_completed');
    expect(failure?.detail).toBe(
      'no answer: the body is larger than the 65536 bytes the kit reads; the rest was not read',
    );
    expect(failure?.failures).toBe(failure?.judged);
    // The server answered every time, so the stage ran to its end; each download was cancelled.
    expect(failures(report, 'stage_completed')).toEqual([]);
    await expect.poll(() => ended, { timeout: 10_000 }).toBe(report.requests);
  });

  it('stops a stage when the server stops answering, and says so in the report', async () => {
    const { url: baseUrl, close } = await silentServer();
    closing.push(close);
    const report = await runConformance({
      variant: 'b',
      baseUrl,
      credentials,
      only: ['fuzz', 'invariants'],
      requests: 20,
      timeoutMs: 200,
    });
    expect(report.passed).toBe(false);
    // 3 unanswered requests in a row end each stage, out of the hundreds the fuzz stage would send.
    expect(report.requests).toBe(6);
    expect(failures(report, 'stage_completed').map(({ stage, detail }) => [stage, detail])).toEqual(
      ['fuzz', 'invariants'].map((stage) => [
        stage,
        "the server stopped answering: 3 requests in a row got no answer (the last: no answer within 200 ms); the stage's remaining requests were not sent",
      ]),
    );
  });

  it('stops at the run deadline: the running stage ends early and the next is not run', async () => {
    const base = await serve((_request, response) => {
      setTimeout(() => response.writeHead(404, { 'content-type': 'application/problem+json' }).end('{}'), 50);
    });
    const report = await runConformance({
      variant: 'b',
      baseUrl: base,
      credentials,
      only: ['fuzz', 'invariants'],
      requests: 50,
      timeoutMs: 5000,
      deadlineMs: 500,
    });
    expect(report.passed).toBe(false);
    expect(failures(report, 'stage_completed').map(({ stage, detail }) => [stage, detail])).toEqual([
      ['fuzz', "the run's deadline of 0.5 s (--deadline) passed; the stage's remaining requests were not sent"],
      ['invariants', "not run: the run's deadline of 0.5 s (--deadline) had passed"],
    ]);
  });
});

describe('the base URL', () => {
  it("refuses a Variant B --base-url ending in /merchant/v1 with the client's advice, sending nothing", async () => {
    let sent = 0;
    const fetch = async () => {
      sent += 1;
      return new Response(null, { status: 500 });
    };
    for (const baseUrl of ['http://127.0.0.1:9/merchant/v1', 'http://127.0.0.1:9/merchant/v1/']) {
      const run = runConformance({ variant: 'b', baseUrl, credentials, only: ['fuzz'], requests: 1, fetch });
      await expect(run).rejects.toThrow(ConformanceUsageError);
      await expect(run).rejects.toThrow(
        '--base-url: baseUrl must not include /merchant/v1: every Variant B path already starts with it',
      );
      await expect(run).rejects.toThrow('Drop the prefix: pass "http://127.0.0.1:9".');
    }
    expect(sent).toBe(0);
  });
});
