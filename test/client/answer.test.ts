// The Response a call hands back: the answer's status, status text, headers and url, with a body the client has read
// within its limits, that middleware can still read through a clone and that is spent once the client parsed it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPaymentBody, ids } from './fixtures.js';
import { testClientB } from './harness.js';
import { startScriptedServer, type ScriptedServer } from './server.js';

const text = '{"data":{"id":"pay_8f3k2m9q4w7x","note":"café"}}';
const created = { status: 201, headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' }, raw: text };
const getPayment = '/merchant/v1/payments/{paymentId}';

describe('the response of a call', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer(created);
  });
  afterEach(() => server.close());

  it('keeps the status, status text, headers and url of the answer', async () => {
    const { data, response } = await testClientB(server.url).POST('/merchant/v1/payments', { body: createPaymentBody });
    expect(data).toEqual(JSON.parse(text));
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.statusText, response.ok]).toEqual([201, 'Created', true]);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.url).toBe(`${server.url}/merchant/v1/payments`);
    expect(response.redirected).toBe(false);
  });

  it('has the url the answer came from after a redirect it followed', async () => {
    server.reply({ status: 307, headers: { location: '/merchant/v1/payments-moved' } }, created);
    const { response } = await testClientB(server.url, { redirect: 'follow-same-origin' }).POST(
      '/merchant/v1/payments',
      { body: createPaymentBody },
    );
    expect(response.status).toBe(201);
    expect(response.url).toBe(`${server.url}/merchant/v1/payments-moved`);
  });

  it('is spent once the client parsed its body, as a fetched Response is', async () => {
    const { response } = await testClientB(server.url).GET(getPayment, {
      params: { path: { paymentId: ids.payment } },
    });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
  });

  it('lets middleware read the same bytes through clones, each independently, before the client parses it', async () => {
    const seen: string[] = [];
    const client = testClientB(server.url);
    client.use({
      async onResponse({ response }) {
        const [first, second] = [response.clone(), response.clone()];
        seen.push(await first.text(), new TextDecoder().decode(await second.arrayBuffer()));
        expect(response.bodyUsed).toBe(false);
        return undefined;
      },
    });
    const { data } = await client.GET(getPayment, { params: { path: { paymentId: ids.payment } } });
    expect(seen).toEqual([text, text]);
    expect(data).toEqual(JSON.parse(text));
  });

  it('hands a body asked for as a stream over whole, and counts it used once read', async () => {
    const { data, response } = await testClientB(server.url).GET(getPayment, {
      params: { path: { paymentId: ids.payment } },
      parseAs: 'stream',
    });
    expect(response.bodyUsed).toBe(false);
    expect(await new Response(data as unknown as ReadableStream).text()).toBe(text);
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });
});
