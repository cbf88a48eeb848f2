import { describe, expect, it } from 'vitest';
import { BufferedResponse } from '../../src/client/buffered-response.js';

const text = '{"data":{"id":"pay_1","note":"café"}}';

function fetched(): Response {
  const response = new Response(text, { status: 201, statusText: 'Created', headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' } });
  return Object.defineProperties(response, { url: { value: 'https://api.payments.example/merchant/v1/payments' }, redirected: { value: true } });
}

async function buffered(): Promise<BufferedResponse> {
  const from = fetched();
  return new BufferedResponse(new Uint8Array(await from.clone().arrayBuffer()), from, { headers: from.headers });
}

describe('BufferedResponse', () => {
  it('keeps the status, headers, url and redirected of the response it replaces', async () => {
    const response = await buffered();
    expect(response).toBeInstanceOf(Response);
    expect([response.status, response.statusText, response.ok]).toEqual([201, 'Created', true]);
    expect(response.headers.get('x-request-id')).toBe('req_1');
    expect(response.url).toBe('https://api.payments.example/merchant/v1/payments');
    expect(response.redirected).toBe(true);
  });

  it('reads the body once, as text or JSON, and then counts it as used', async () => {
    const response = await buffered();
    expect(response.bodyUsed).toBe(false);
    expect(await response.json()).toEqual(JSON.parse(text));
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
    expect(response.body?.locked).toBe(true);
  });

  it('gives the same bytes through body, arrayBuffer, bytes and blob', async () => {
    expect(await new Response((await buffered()).body).text()).toBe(text);
    expect(new TextDecoder().decode(await (await buffered()).arrayBuffer())).toBe(text);
    expect(new TextDecoder().decode(await (await buffered()).bytes())).toBe(text);
    expect(await (await (await buffered()).blob()).text()).toBe(text);
  });

  it('counts a body read through its stream as used', async () => {
    const response = await buffered();
    expect(await new Response(response.body).text()).toBe(text);
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
  });

  it('clones into a response that reads the same bytes independently', async () => {
    const response = await buffered();
    const copy = response.clone();
    expect(await copy.text()).toBe(text);
    expect(await response.text()).toBe(text);
    expect(copy.url).toBe(response.url);
    expect(copy.status).toBe(201);
  });

  it('serves json() the value parsed when the body was checked, once, and any later read fails as a spent body does', async () => {
    const from = fetched();
    const parsed = { data: { id: 'pay_1' } };
    const response = new BufferedResponse(new Uint8Array(await from.clone().arrayBuffer()), from, { headers: from.headers, parsed });
    expect(await response.json()).toBe(parsed);
    expect(response.bodyUsed).toBe(true);
    await expect(response.json()).rejects.toThrow(TypeError);
    await expect(response.arrayBuffer()).rejects.toThrow(TypeError);
  });

  it('answers json() with a SyntaxError for bytes that are not JSON, as a fetched Response does', async () => {
    const from = new Response('<html>', { headers: { 'content-type': 'text/html' } });
    const response = new BufferedResponse(new TextEncoder().encode('<html>'), from, { headers: from.headers });
    await expect(response.json()).rejects.toThrow(SyntaxError);
  });
});
