// applyServerTimeouts on node:http servers on 127.0.0.1, probed with raw sockets: a peer that sends nothing, one that
// trickles its headers, one that trickles its body, and a handler slower than the headers time-out.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startListener } from '../../packages/cli/src/webhook/listener.js';
import { createSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { applyServerTimeouts } from '../../packages/contract/src/shared/server-timeouts.js';
import { SECRET } from '../webhooks/fixtures.js';
import { closeProbes, probe, trickledBody, trickledHeaders } from './probe.js';

const TIMEOUTS = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300 };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  closeProbes();
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  return (server.address() as AddressInfo).port;
}

describe('applyServerTimeouts', () => {
  it('closes a connection that sends nothing within the headers time-out', async () => {
    const port = await listen(
      applyServerTimeouts(
        createServer((_req, res) => res.end()),
        TIMEOUTS,
      ),
    );
    const { ms } = await probe(port);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUTS.headersTimeoutMs - 50);
  });

  it("cuts trickled headers at the headers time-out, and a trickled body with a 408 soon after its time-out, not at Node's 30 s check", async () => {
    const port = await listen(
      applyServerTimeouts(
        createServer((req, res) => req.resume().on('end', () => res.end())),
        TIMEOUTS,
      ),
    );
    const headers = await probe(port, [...trickledHeaders]);
    const body = await probe(port, [...trickledBody]);
    expect(headers.ms).toBeGreaterThanOrEqual(TIMEOUTS.headersTimeoutMs - 50);
    expect(body.answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('keeps a connection whose request arrived while a slow handler answers, and closes it when idle after', async () => {
    const port = await listen(
      applyServerTimeouts(
        createServer((_req, res) => setTimeout(() => res.end('late'), TIMEOUTS.headersTimeoutMs * 2)),
        TIMEOUTS,
      ),
    );
    const { answer, ms } = await probe(port, ['GET / HTTP/1.1\r\nHost: x\r\n\r\n']);
    expect(answer).toMatch(/^HTTP\/1\.1 200[\s\S]*late$/);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUTS.headersTimeoutMs * 2);
  });

  it('refuses time-outs that are not whole milliseconds above 0, or headers longer than the request, naming the option', () => {
    expect(() => applyServerTimeouts(createServer(), { headersTimeoutMs: 0 })).toThrow(
      /headersTimeoutMs must be a whole number/,
    );
    expect(() => applyServerTimeouts(createServer(), { requestTimeoutMs: 1.5 })).toThrow(
      /requestTimeoutMs must be a whole number/,
    );
    expect(() => applyServerTimeouts(createServer(), { headersTimeoutMs: 2000, requestTimeoutMs: 1000 })).toThrow(
      /must not exceed requestTimeoutMs/,
    );
  });
});

describe('the servers this package starts', () => {
  it('webhook listen closes a silent connection and cuts trickled headers and a trickled body', async () => {
    const listener = await startListener({
      port: 0,
      host: '127.0.0.1',
      secret: SECRET,
      onVerified: () => {},
      onRefused: () => {},
      timeouts: TIMEOUTS,
    });
    closers.push(() => listener.close());
    const port = Number(new URL(listener.url).port);
    await probe(port);
    await probe(port, [...trickledHeaders]);
    expect((await probe(port, [...trickledBody])).answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it("the sandbox's HTTP server closes a silent connection and cuts a trickled body", async () => {
    const sandbox: Sandbox = createSandbox({ webhookSecret: SECRET, clock: 'manual' });
    closers.push(() => sandbox.close());
    const { url } = await sandbox.listen({ port: 0, timeouts: TIMEOUTS });
    const port = Number(new URL(url).port);
    await probe(port);
    expect((await probe(port, [...trickledBody])).answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
