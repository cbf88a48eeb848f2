import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientConfigError } from '../../packages/contract/src/index.js';
import { createPaymentBody, ids } from './fixtures.js';
import { testClientB } from './harness.js';
import { problemReply, startScriptedServer, type ScriptedServer } from './server.js';

const payment = { status: 200, body: { data: { id: ids.payment, status: 'pending' } } };
const createPayment = '/merchant/v1/payments';
const getPayment = '/merchant/v1/payments/{paymentId}';

describe('request and response bodies', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer(payment);
  });
  afterEach(() => server.close());

  const bodies = () => server.requests.map((r) => r.body);

  it("sends the identical body bytes on every attempt through the caller's fetch", async () => {
    server.reply('reset', problemReply(503, 'unavailable'), payment);
    const sent: string[] = [];
    const client = testClientB(server.url, {
      fetch: async (request) => {
        sent.push(await request.clone().text());
        return fetch(request);
      },
    });
    const { data } = await client.POST(createPayment, { body: createPaymentBody });
    expect(data).toEqual(payment.body);
    expect(sent).toEqual(Array(3).fill(JSON.stringify(createPaymentBody)));
    expect(bodies()).toEqual(sent);
  });

  it('refuses a per-call fetch, which would bypass the transport, before any credential reaches it', async () => {
    const seen: Request[] = [];
    const client = testClientB(server.url);
    const ownFetch = async (request: Request) => (seen.push(request), fetch(request));
    const failure = await client
      // @ts-expect-error a per-call fetch is not among the call options
      .POST(createPayment, { body: createPaymentBody, fetch: ownFetch })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ClientConfigError);
    expect((failure as ClientConfigError).option).toBe('fetch');
    expect(seen).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  it('resends a body the client cannot keep as text (a custom bodySerializer), on every attempt', async () => {
    server.reply(problemReply(503, 'unavailable'), 'reset', payment);
    const client = testClientB(server.url);
    const bodySerializer = (body: unknown) => new Blob([JSON.stringify(body)], { type: 'application/json' });
    const { data } = await client.POST(createPayment, { body: createPaymentBody, bodySerializer });
    expect(data).toEqual(payment.body);
    expect(bodies()).toEqual(Array(3).fill(JSON.stringify(createPaymentBody)));
  });

  it('sends the body of a request a middleware replaced', async () => {
    const client = testClientB(server.url);
    client.use({
      onRequest({ request }) {
        const headers = new Headers(request.headers);
        headers.set('X-Trace', 't-1');
        return new Request(request, { headers });
      },
    });
    const { data } = await client.POST(createPayment, { body: createPaymentBody });
    expect(data).toEqual(payment.body);
    expect(bodies()).toEqual([JSON.stringify(createPaymentBody)]);
    expect(server.requests[0]!.headers['x-trace']).toBe('t-1');
  });

  it('hands the whole response body on, whatever the client is asked to parse it as', async () => {
    const client = testClientB(server.url);
    // Note: the client's types describe `data` as JSON; with another parseAs it holds what that reader returns.
    const call = async (parseAs: 'text' | 'arrayBuffer' | 'blob' | 'stream') =>
      (await client.GET(getPayment, { params: { path: { paymentId: ids.payment } }, parseAs })).data as unknown;
    const text = JSON.stringify(payment.body);
    expect(await call('text')).toBe(text);
    expect(new TextDecoder().decode((await call('arrayBuffer')) as ArrayBuffer)).toBe(text);
    expect(await ((await call('blob')) as Blob).text()).toBe(text);
    expect(await new Response((await call('stream')) as ReadableStream).text()).toBe(text);
  });

  it('lets a middleware read a clone of the response before the client parses it', async () => {
    const seen: unknown[] = [];
    const client = testClientB(server.url);
    client.use({
      async onResponse({ response }) {
        seen.push(await response.clone().json());
        return undefined;
      },
    });
    const { data, response } = await client.GET(getPayment, { params: { path: { paymentId: ids.payment } } });
    expect(seen).toEqual([payment.body]);
    expect(data).toEqual(payment.body);
    expect(response.bodyUsed).toBe(true);
  });
});
