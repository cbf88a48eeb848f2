import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ResponseParseError, ResponseTooLargeError } from '../../packages/contract/src/index.js';
import { ids } from './fixtures.js';
import { credentials, testClientA, testClientB } from './harness.js';
import { startScriptedServer, type ScriptedServer } from './server.js';

const MiB = 1024 * 1024;

// A server that streams `{"data":"xxxx…` forever, writing only when the socket drains; it counts what it wrote.
async function startEndlessServer(): Promise<{
  url: string;
  written: () => number;
  closed: Promise<void>;
  server: Server;
}> {
  let written = 0;
  let onClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  const chunk = Buffer.alloc(64 * 1024, 'x');
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"data":"');
    const pump = () => {
      while (!res.destroyed && res.write(chunk)) written += chunk.length;
    };
    res.on('drain', pump);
    res.on('close', onClosed);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, written: () => written, closed, server };
}

describe('response size limit', () => {
  let endless: Awaited<ReturnType<typeof startEndlessServer>> | undefined;
  let scripted: ScriptedServer | undefined;
  afterEach(async () => {
    endless?.server.closeAllConnections();
    await new Promise((resolve) => (endless ? endless.server.close(resolve) : resolve(undefined)));
    await scripted?.close();
    [endless, scripted] = [undefined, undefined];
  });

  it('aborts an endless body at maxResponseBytes with ResponseTooLargeError and closes the connection', async () => {
    endless = await startEndlessServer();
    const client = testClientA(endless.url, { maxResponseBytes: MiB, retry: false });
    const failure = await client.GET('/balance').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ResponseTooLargeError);
    const error = failure as ResponseTooLargeError;
    expect(error.status).toBe(200);
    expect(error.maxResponseBytes).toBe(MiB);
    expect(error.message).toContain(
      `GET ${endless.url}/balance answered 200 with a body larger than maxResponseBytes (1048576 bytes)`,
    );
    await endless.closed;
    // Note: what the server could write before the abort is the limit plus what socket buffers hold, not gigabytes.
    expect(endless.written()).toBeLessThan(64 * MiB);
  });

  it('refuses a declared Content-Length above the limit without reading the body, and does not retry', async () => {
    scripted = await startScriptedServer({
      status: 200,
      headers: { 'content-length': String(2 * MiB) },
      body: undefined,
    });
    const client = testClientB(scripted.url, { maxResponseBytes: MiB });
    const failure = await client.GET('/merchant/v1/balance').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ResponseTooLargeError);
    expect(scripted.requests).toHaveLength(1);
  });

  it('reads an error body under the same limit', async () => {
    scripted = await startScriptedServer({ status: 404, body: { detail: 'y'.repeat(4096) } });
    const failure = await testClientA(scripted.url, { maxResponseBytes: 1024 })
      .GET('/balance')
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ResponseTooLargeError);
    expect((failure as ResponseTooLargeError).status).toBe(404);
  });
});

describe('bodies that do not parse', () => {
  let server: ScriptedServer;
  afterEach(() => server.close());

  it('throws ResponseParseError with the status, content type and a scrubbed excerpt for a 2xx HTML page', async () => {
    server = await startScriptedServer((request) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      // A proxy's debug page that echoes the request headers back.
      raw: `<html><body>Gateway says hello\n<pre>x-secret-key: ${String(request.headers['x-secret-key'])}</pre></body></html>`,
    }));
    const client = testClientB(server.url, { retry: false });
    const failure = await client
      .GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: ids.payment } } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ResponseParseError);
    const error = failure as ResponseParseError;
    expect(error.status).toBe(200);
    expect(error.contentType).toBe('application/json');
    expect(error.excerpt).toBe('<html><body>Gateway says hello <pre>x-secret-key: [REDACTED]</pre></body></html>');
    expect(error.message).toContain('answered 200 (application/json) with a body that is not JSON');
    expect(error.message).not.toContain(credentials.secretKey);
  });

  it('cuts the excerpt to 200 characters', async () => {
    server = await startScriptedServer({
      status: 201,
      headers: { 'content-type': 'text/plain' },
      raw: 'z'.repeat(5000),
    });
    const failure = await testClientA(server.url)
      .GET('/balance')
      .catch((e: unknown) => e);
    expect((failure as ResponseParseError).excerpt).toBe(`${'z'.repeat(200)}…`);
    expect((failure as ResponseParseError).contentType).toBe('text/plain');
  });

  it('returns a non-JSON error body as an UndocumentedErrorBody holding its text, without throwing', async () => {
    server = await startScriptedServer({
      status: 502,
      headers: { 'content-type': 'text/html' },
      raw: '<h1>Bad gateway</h1>',
    });
    const { error, response } = await testClientA(server.url, { retry: false }).GET('/balance');
    expect(response.status).toBe(502);
    expect(error).toEqual({
      undocumented: true,
      status: 502,
      contentType: 'text/html',
      body: '<h1>Bad gateway</h1>',
      excerpt: '<h1>Bad gateway</h1>',
    });
  });
});
