import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientConfigError, createVariantAClient, createVariantBClient } from '../../packages/contract/src/index.js';
import { PACKAGE_VERSION } from '../../packages/contract/generated/version.js';
import { credentials, testClientA, testClientB } from './harness.js';
import { startScriptedServer, type ScriptedServer } from './server.js';

const ok = { status: 200, body: { data: { entries: [] } } };

function configError(build: () => unknown): ClientConfigError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ClientConfigError);
    return error as ClientConfigError;
  }
  throw new Error('expected a ClientConfigError');
}

describe('client construction', () => {
  const baseUrl = 'https://api.payments.example';

  it.each([
    ['accessToken', () => createVariantAClient({ baseUrl } as never), /accessToken is missing/],
    ['accessToken', () => createVariantAClient({ baseUrl, accessToken: '' }), /accessToken is missing/],
    [
      'publicKey',
      () => createVariantBClient({ baseUrl, secretKey: credentials.secretKey } as never),
      /publicKey is missing.*X-Public-Key/,
    ],
    [
      'secretKey',
      () => createVariantBClient({ baseUrl, publicKey: credentials.publicKey } as never),
      /secretKey is missing.*X-Secret-Key/,
    ],
    [
      'secretKey',
      () => createVariantBClient({ baseUrl, publicKey: 'pk', secretKey: 'sk\n' }),
      /printable ASCII.*stray newline/,
    ],
    ['baseUrl', () => createVariantAClient({ accessToken: 'tok' } as never), /baseUrl is missing/],
    [
      'baseUrl',
      () => createVariantAClient({ baseUrl: '/payments', accessToken: 'tok' }),
      /could not be parsed as an absolute URL/,
    ],
    [
      'baseUrl',
      () => createVariantAClient({ baseUrl: 'ftp://files.example', accessToken: 'tok' }),
      /must use http or https, not ftp/,
    ],
    [
      'baseUrl',
      () => createVariantAClient({ baseUrl: 'https://u:p@api.example', accessToken: 'tok' }),
      /must not contain a user name or password/,
    ],
    [
      'baseUrl',
      () => createVariantAClient({ baseUrl: 'https://api.example?x=1', accessToken: 'tok' }),
      /must not have a query or fragment/,
    ],
    [
      'headers',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', headers: { Authorization: 'Bearer x' } }),
      /accessToken option instead/,
    ],
    [
      'headers',
      () => createVariantBClient({ baseUrl, publicKey: 'pk', secretKey: 'sk', headers: { 'x-secret-key': 'x' } }),
      /secretKey option/,
    ],
    [
      'headers',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', headers: { 'Idempotency-Key': 'k' } }),
      /per call in params.header/,
    ],
    [
      'headers',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', headers: { 'bad header': 'x' } }),
      /valid header names/,
    ],
    [
      'timeoutMs',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', timeoutMs: 0 }),
      /positive number of milliseconds/,
    ],
    [
      'retry.attempts',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', retry: { attempts: 0 } }),
      /whole number from 1 to 10/,
    ],
    [
      'retry.maxDelayMs',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', retry: { baseDelayMs: 500, maxDelayMs: 100 } }),
      /from retry.baseDelayMs to 2147483647/,
    ],
    // Timers hold at most 2^31-1 ms; a longer delay would fire after about 1 ms.
    [
      'timeoutMs',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', timeoutMs: 2 ** 31 }),
      /up to 2147483647 \(about 24.8 days\)/,
    ],
    [
      'retry.maxDelayMs',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', retry: { maxDelayMs: 2 ** 31 } }),
      /to 2147483647/,
    ],
    [
      'retry.baseDelayMs',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', retry: { baseDelayMs: 2 ** 32 } }),
      /from 0 to 2147483647/,
    ],
    [
      'maxResponseBytes',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', maxResponseBytes: 0 }),
      /whole number of bytes/,
    ],
    [
      'redirect',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', redirect: 'follow' as never }),
      /"error" \(the default\) or "follow-same-origin"/,
    ],
    [
      'userAgent',
      () => createVariantAClient({ baseUrl, accessToken: 'tok', userAgent: 'shop\n1.0' }),
      /printable ASCII/,
    ],
    ['options', () => createVariantBClient(undefined as never), /needs an options object/],
    [
      'baseUrl',
      () => createVariantBClient({ baseUrl: `${baseUrl}/merchant/v1`, publicKey: 'pk', secretKey: 'sk' }),
      /must not include \/merchant\/v1.*Drop the prefix: pass "https:\/\/api\.payments\.example"\.$/,
    ],
    [
      'baseUrl',
      () => createVariantBClient({ baseUrl: 'http://127.0.0.1:4010/merchant/v1/', publicKey: 'pk', secretKey: 'sk' }),
      /sent twice\. Drop the prefix: pass "http:\/\/127\.0\.0\.1:4010"\.$/,
    ],
    [
      'baseUrl',
      () =>
        createVariantBClient({
          baseUrl: 'https://gw.example/shop-api/merchant/v1/payments',
          publicKey: 'pk',
          secretKey: 'sk',
        }),
      /pass "https:\/\/gw\.example\/shop-api"\.$/,
    ],
  ])('refuses a bad %s with a message that says what to pass', (option, build, message) => {
    const error = configError(build);
    expect(error.name).toBe('ClientConfigError');
    expect(error.option).toBe(option);
    expect(error.message).toMatch(message);
  });
});

describe('a Variant B baseUrl', () => {
  it('may have a path of its own that is not the prefix', () => {
    for (const baseUrl of [
      'https://gw.example/shop-api',
      'https://gw.example/merchant',
      'https://gw.example/merchant/v10',
    ]) {
      expect(
        JSON.parse(JSON.stringify(createVariantBClient({ baseUrl, publicKey: 'pk', secretKey: 'sk' }))).baseUrl,
      ).toBe(baseUrl);
    }
  });

  it('is sent once with the prefix of the path called', async () => {
    const server = await startScriptedServer(ok);
    try {
      await testClientB(`${server.url}/shop-api/`).GET('/merchant/v1/balance');
      expect(server.requests.map((request) => request.url)).toEqual(['/shop-api/merchant/v1/balance']);
    } finally {
      await server.close();
    }
  });
});

describe('request shape', () => {
  let server: ScriptedServer;
  beforeEach(async () => {
    server = await startScriptedServer(ok);
  });
  afterEach(() => server.close());

  it('keeps a path prefix of baseUrl and drops its trailing slash', async () => {
    await testClientA(`${server.url}/gateway/`).GET('/balance');
    expect(server.requests[0]!.url).toBe('/gateway/balance');
  });

  it('sends JSON, problem+json Accept, the default User-Agent and the extra headers', async () => {
    await testClientB(server.url, { headers: { 'X-Request-Source': 'checkout' } }).GET('/merchant/v1/balance');
    const { headers } = server.requests[0]!;
    expect(headers.accept).toBe('application/json, application/problem+json');
    expect(headers['user-agent']).toBe(`merchant-payments-contract/${PACKAGE_VERSION}`);
    expect(headers['x-request-source']).toBe('checkout');
  });

  it("sends the caller's userAgent instead", async () => {
    await testClientA(server.url, { userAgent: 'my-shop/2.1' }).GET('/balance');
    expect(server.requests[0]!.headers['user-agent']).toBe('my-shop/2.1');
  });

  it('calls the injected fetch with one Request per attempt', async () => {
    const seen: string[] = [];
    const client = testClientA(server.url, {
      fetch: (request) => {
        seen.push(`${request.method} ${new URL(request.url).pathname}`);
        return fetch(request);
      },
    });
    await client.POST('/payments/{id}/cancel', { params: { path: { id: 'pay_1' } } });
    expect(seen).toEqual(['POST /payments/pay_1/cancel']);
    expect(server.requests).toHaveLength(1);
  });

  it("states the version the contract package's package.json has", () => {
    const manifest = JSON.parse(
      readFileSync(new URL('../../packages/contract/package.json', import.meta.url), 'utf8'),
    ) as {
      version: string;
    };
    expect(PACKAGE_VERSION).toBe(manifest.version);
  });
});
