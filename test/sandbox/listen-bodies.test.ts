// Request bodies over real HTTP: one with a Content-Length is read straight from the socket, one sent in chunks through
// a stream, and either is refused past maxBodyBytes; the same with @hono/node-server's lighter globals, which the
// command turns on. @hono/node-server replaces the globals for good, so the file puts the originals back at the end:
// its worker runs other test files after this one.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { newSandbox, paymentBody } from './fixtures.js';

const MAX = 1024;
const headers = { authorization: 'Bearer token-bodies', 'content-type': 'application/json' };
const small = JSON.stringify(paymentBody());
const large = JSON.stringify(paymentBody({ metadata: { note: 'x'.repeat(2 * MAX) } }));

/** A body fetch sends with Transfer-Encoding: chunked, in two pieces. */
function chunked(text: string): { body: ReadableStream<Uint8Array>; duplex: 'half' } {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
  return { body, duplex: 'half' };
}

const { Request, Response } = globalThis;
afterAll(() => {
  Object.defineProperty(globalThis, 'Request', { value: Request });
  Object.defineProperty(globalThis, 'Response', { value: Response });
  expect([
    new globalThis.Request('http://x.test/') instanceof Request,
    new globalThis.Response() instanceof Response,
  ]).toEqual([true, true]);
});

describe.each([false, true])('request bodies over HTTP (overrideGlobalObjects: %s)', (overrideGlobalObjects) => {
  let url = '';
  let key = 0;
  const post = (init: { body: string | ReadableStream<Uint8Array>; duplex?: 'half' }) =>
    fetch(`${url}/payments`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': `k-${overrideGlobalObjects}-${key++}` },
      ...init,
    });

  // Note: newSandbox closes it after each test.
  beforeEach(async () => {
    ({ url } = await newSandbox({ maxBodyBytes: MAX }).listen({ port: 0, host: '127.0.0.1', overrideGlobalObjects }));
  });

  it('creates a payment from a body with a Content-Length and from a chunked one', async () => {
    const sized = await post({ body: small });
    const streamed = await post(chunked(small));
    expect([sized.status, (await sized.json()).data.status]).toEqual([200, 'created']);
    expect([streamed.status, (await streamed.json()).data.status]).toEqual([200, 'created']);
  });

  it('refuses a body over maxBodyBytes, declared or streamed, with a 400 problem that says so', async () => {
    for (const response of [await post({ body: large }), await post(chunked(large))]) {
      expect([response.status, response.headers.get('content-type'), (await response.json()).detail]).toEqual([
        400,
        'application/problem+json',
        `The request body is larger than ${MAX} bytes.`,
      ]);
    }
  });

  it('answers a success without a request id and a problem with one', async () => {
    const ok = await fetch(`${url}/balance`, { headers });
    const missing = await fetch(`${url}/payments/pay_missing`, { headers });
    expect(Object.keys(await ok.json())).not.toContain('request_id');
    expect((await missing.json()).request_id).toMatch(/^req_[A-Za-z0-9_-]+$/);
  });
});
