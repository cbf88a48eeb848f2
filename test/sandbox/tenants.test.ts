// Tenants: each bearer token (Variant A) and each public key (Variant B) has its own objects, clock and ids;
// Variant B remembers the first secret key seen with a public key; missing credentials get 401.
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { createMemoryStore, type MemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import { call, clientA, clientB, newSandbox, paymentBody } from './fixtures.js';

describe('tenants', () => {
  it('keeps each token, and each public key, apart: objects, lists and clocks', async () => {
    const sandbox = newSandbox();
    const one = clientA(sandbox, 'token-1');
    const two = clientA(sandbox, 'token-2');
    const b = clientB(sandbox, 'token-1', 'sk');
    const payment = (await one.POST('/payments', { body: paymentBody() })).data!.data;
    await sandbox.advance({ accessToken: 'token-1' }, 3600);
    expect((await two.GET('/payments/{id}', { params: { path: { id: payment.id } } })).response.status).toBe(404);
    expect((await two.GET('/payments')).data?.pagination.total).toBe(0);
    // Note: a public key spelled like a bearer token is still another tenant.
    expect((await b.GET('/merchant/v1/payments')).data?.pagination.total).toBe(0);
    expect((await sandbox.now({ accessToken: 'token-1' })).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect((await sandbox.now({ accessToken: 'token-2' })).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('runs parallel tests on separate tenants without either seeing the other', async () => {
    const sandbox = newSandbox();
    const runs = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const client = clientB(sandbox, `pk_${i}`, `sk_${i}`);
        for (let n = 0; n <= i; n++) await client.POST('/merchant/v1/payments', { body: paymentBody() });
        return (await client.GET('/merchant/v1/payments')).data?.pagination.total;
      }),
    );
    expect(runs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('gives the same ids to the same requests under the same seed, tenant by tenant', async () => {
    const ids = async () => (await clientA(newSandbox()).POST('/payments', { body: paymentBody() })).data!.data.id;
    expect(await ids()).toBe(await ids());
  });

  it('Variant B: answers 401 to a secret key other than the first one seen with the public key', async () => {
    const sandbox = newSandbox();
    expect((await clientB(sandbox, 'pk_1', 'sk_first').GET('/merchant/v1/balance')).response.status).toBe(200);
    const wrong = await clientB(sandbox, 'pk_1', 'sk_other').GET('/merchant/v1/balance');
    expect([wrong.response.status, wrong.error?.code]).toEqual([401, 'unauthorized']);
    expect((await clientB(sandbox, 'pk_1', 'sk_first').GET('/merchant/v1/balance')).response.status).toBe(200);
  });

  it.each([
    ['Variant A without Authorization', '/payments', {}],
    ['Variant A with another scheme', '/payments', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Variant B without X-Secret-Key', '/merchant/v1/payments', { 'x-public-key': 'pk' }],
    ['Variant B without X-Public-Key', '/merchant/v1/payments', { 'x-secret-key': 'sk' }],
  ])('%s: 401 problem', async (_name, path, headers) => {
    const response = await call(newSandbox(), 'GET', path, headers);
    const body = await response.json();
    expect([response.status, body.code, body.status, body.instance]).toEqual([401, 'unauthorized', 401, path]);
  });

  it('keeps no credential in the tenant ids it stores, nor anywhere in their state', async () => {
    let memory: MemoryStore | undefined;
    const sandbox = newSandbox({ store: (settings) => (memory = createMemoryStore(settings)) });
    await clientA(sandbox, 'secret-token-value').GET('/payments');
    await clientB(sandbox, 'pk_visible', 'sk_secret_value').GET('/merchant/v1/payments');
    const kept = serialize(memory!.entries()).toString('latin1');
    expect(kept).not.toMatch(/secret-token-value|pk_visible|sk_secret_value/);
    expect(memory!.tenantIds()).toHaveLength(2);
  });
});
