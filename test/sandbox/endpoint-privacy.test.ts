// What a tenant is shown of webhook endpoints and failed deliveries: never a user name or password, a query string or
// the operator's --webhook-url; and a URL with a user name or password is refused when an endpoint is registered.
import getPort from 'get-port';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../packages/sandbox/src/index.js';
import { controlA, controlSandbox } from './control-fixtures.js';
import { call, clientA, paymentBody, SECRET } from './fixtures.js';

const A = { authorization: 'Bearer token-a' };
const TOKEN = 'opstoken-3f9a';

describe('webhook endpoints as a tenant sees them', () => {
  it("list the operator's --webhook-url as source operator with no URL, and fail its deliveries without naming it", async () => {
    // Note: nothing listens on this port, so every attempt fails with a refused connection.
    const port = await getPort();
    const operatorUrl = `http://127.0.0.1:${port}/ops-hooks/relay?token=${TOKEN}`;
    const sandbox = controlSandbox({ webhookUrls: [operatorUrl], clock: 'manual' });
    const client = clientA(sandbox);
    const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
    await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
    await sandbox.settled();

    const listed = await call(sandbox, 'GET', '/_sandbox/webhook-endpoints', A);
    const endpoints = await listed.json();
    expect(endpoints.data).toEqual([
      { id: expect.any(String), url: null, source: 'operator', layout: 'later', created_at: expect.any(String) },
    ]);
    const deliveries = await (await call(sandbox, 'GET', '/_sandbox/deliveries', A)).text();
    const attempts = JSON.parse(deliveries).data.flatMap(
      (delivery: { attempts: { error: string | null }[] }) => delivery.attempts,
    );
    expect(attempts[0]).toMatchObject({ outcome: 'failed', response_status: null, error: 'network: ECONNREFUSED.' });
    for (const text of [JSON.stringify(endpoints), deliveries]) {
      for (const leak of [TOKEN, String(port), 'ops-hooks', '127.0.0.1']) expect(text, leak).not.toContain(leak);
    }
  });

  it("list a tenant's own URL without its query string and fragment", async () => {
    const sandbox = controlSandbox();
    const created = await controlA(sandbox).POST('/_sandbox/webhook-endpoints', {
      body: { url: `http://merchant.test/hooks?key=${TOKEN}#frag` },
    });
    expect(created.data?.data).toMatchObject({ url: 'http://merchant.test/hooks', source: 'tenant' });
    const listed = await controlA(sandbox).GET('/_sandbox/webhook-endpoints');
    expect(listed.data?.data.map((endpoint) => [endpoint.url, endpoint.source])).toEqual([
      ['http://merchant.test/hooks', 'tenant'],
    ]);
    expect(JSON.stringify(listed.data)).not.toContain(TOKEN);
  });

  it.each([
    ['a user name and password', 'http://hook-user:hook-pass@merchant.test/hooks'],
    ['a user name alone', 'https://hook-pass@merchant.test/hooks'],
  ])('refuse a URL with %s: 422 naming /url, echoing neither', async (_name, url) => {
    const response = await call(controlSandbox(), 'POST', '/_sandbox/webhook-endpoints', A, { url });
    const text = await response.text();
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.parse(text)).toMatchObject({
      code: 'validation_failed',
      errors: [{ pointer: '/url', detail: expect.stringContaining('user name or password') }],
    });
    expect(text).not.toContain('hook-pass');
  });

  it('refuse an operator URL with a user name or password at start, without quoting it', () => {
    expect(() => createSandbox({ webhookSecret: SECRET, webhookUrls: ['http://ops:ops-pass@merchant.test/'] })).toThrow(
      /without a user name or password/,
    );
    expect(() =>
      createSandbox({ webhookSecret: SECRET, webhookUrls: ['http://ops:ops-pass@merchant.test/'] }),
    ).not.toThrow(/ops-pass/);
  });
});
