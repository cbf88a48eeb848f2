// Over HTTP: listen on a free port of 127.0.0.1, answer the typed clients and plain requests, close cleanly.
import { describe, expect, it } from 'vitest';
import { createVariantAClient, createVariantBClient } from '../../packages/contract/src/index.js';
import { newSandbox, paymentBody } from './fixtures.js';

describe('sandbox.listen', () => {
  it('serves both variants on one port and stops listening on close()', async () => {
    const sandbox = newSandbox();
    const { url } = await sandbox.listen({ port: 0, host: '127.0.0.1' });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const a = createVariantAClient({ baseUrl: url, accessToken: 'token-a', retry: false });
    const b = createVariantBClient({ baseUrl: url, publicKey: 'pk', secretKey: 'sk', retry: false });
    const created = await a.POST('/payments', { body: paymentBody() });
    expect(created.data?.data.status).toBe('created');
    expect((await b.GET('/merchant/v1/payments')).data?.pagination.total).toBe(0);
    const malformed = await fetch(`${url}/payments`, {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'idempotency-key': 'k' },
      body: '{',
    });
    expect([malformed.status, malformed.headers.get('content-type')]).toEqual([400, 'application/problem+json']);
    await expect(sandbox.listen({ port: 0 })).rejects.toThrow(/already listening/);
    await sandbox.close();
    await expect(fetch(`${url}/balance`)).rejects.toThrow();
  });
});
