import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ClientConfigError,
  NetworkError,
  TimeoutError,
  createVariantAClient,
  createVariantBClient,
} from '../../packages/contract/src/index.js';
import { credentials, testClientA, testClientB } from './harness.js';
import { problemReply, startScriptedServer, type ScriptedServer } from './server.js';

const secrets = Object.values(credentials);

// Every way an error or a client can be printed.
function printed(value: unknown): string[] {
  const texts = [
    inspect(value, { depth: Infinity }),
    inspect(value, { depth: Infinity, showHidden: true, customInspect: false }),
  ];
  texts.push(JSON.stringify(value) ?? '');
  if (value instanceof Error) texts.push(value.message, String(value.stack), String(value));
  return texts;
}

function expectNoCredential(texts: string[]): void {
  for (const text of texts) for (const secret of secrets) expect(text).not.toContain(secret);
}

describe.each(['A', 'B'] as const)('Variant %s credentials', (variant) => {
  let server: ScriptedServer;
  let lines: string[];
  const logger = { debug: (line: string) => lines.push(line), warn: (line: string) => lines.push(line) };
  beforeEach(async () => {
    server = await startScriptedServer();
    lines = [];
  });
  afterEach(() => server.close());

  const get = (options: Parameters<typeof testClientA>[1]) =>
    variant === 'A'
      ? testClientA(server.url, { logger, ...options }).GET('/balance')
      : testClientB(server.url, { logger, ...options }).GET('/merchant/v1/balance');

  it('sends them on every attempt', async () => {
    server.reply(problemReply(503, 'unavailable'), { status: 200, body: { data: { entries: [] } } });
    await get({});
    expect(server.requests).toHaveLength(2);
    for (const request of server.requests) {
      if (variant === 'A') expect(request.headers.authorization).toBe(`Bearer ${credentials.accessToken}`);
      else
        expect([request.headers['x-public-key'], request.headers['x-secret-key']]).toEqual([
          credentials.publicKey,
          credentials.secretKey,
        ]);
    }
  });

  it('keeps them out of every log line, with the headers logged redacted', async () => {
    server.reply('reset', problemReply(503, 'unavailable'), { status: 200, body: { data: { entries: [] } } });
    await get({});
    expect(lines.filter((line) => line.includes('retrying'))).toHaveLength(2);
    expect(lines.filter((line) => line.includes('[REDACTED]'))).toHaveLength(3);
    expectNoCredential(lines);
  });

  it('keeps them out of a NetworkError, its cause, and how it prints', async () => {
    server.reply('reset', 'reset', 'reset');
    const error = await get({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expectNoCredential([...printed(error), ...lines]);
  });

  it('keeps them out of a TimeoutError and how it prints', async () => {
    server.reply('hang');
    const error = await get({ timeoutMs: 30, retry: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expectNoCredential([...printed(error), ...lines]);
  });

  it('scrubs them from the cause when a custom fetch puts a header into its error', async () => {
    const leaky = async (request: Request) => {
      const pairs: string[] = [];
      request.headers.forEach((value, name) => pairs.push(`${name}=${value}`));
      const echoed = pairs.join(' ');
      throw Object.assign(new Error(`proxy refused ${echoed}`), { detail: echoed });
    };
    const error = await get({ fetch: leaky, retry: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(((error as NetworkError).cause as Error).message).toContain('[REDACTED]');
    expectNoCredential(printed(error));
  });

  const headersOf = (request: Request) => {
    const out: Record<string, string> = {};
    request.headers.forEach((value, name) => (out[name] = value));
    return out;
  };
  // Each throws something that holds the request's credentials where walking an error field by field misses them.
  const leakyThrows: Record<string, (request: Request) => unknown> = {
    'an object property': (request) =>
      Object.assign(new Error('proxy refused'), { config: { headers: headersOf(request) } }),
    'AggregateError.errors': (request) =>
      new AggregateError([new Error(`refused ${JSON.stringify(headersOf(request))}`)], 'all attempts failed'),
    'a cause ten levels deep': (request) => {
      let error = new Error(`innermost ${JSON.stringify(headersOf(request))}`);
      for (let depth = 0; depth < 10; depth++) error = new Error(`level ${depth}`, { cause: error });
      return error;
    },
    'a Request used as the cause': (request) => new TypeError('fetch failed', { cause: request }),
    'a Proxy whose getters throw': () =>
      new Proxy(new Error('hostile'), {
        get() {
          throw new Error('trap');
        },
      }),
  };

  it.each(Object.keys(leakyThrows))('keeps them out of a NetworkError when a custom fetch throws %s', async (kind) => {
    const fetch = async (request: Request) => {
      throw leakyThrows[kind]!(request);
    };
    const error = await get({ fetch, retry: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).cause).toBeInstanceOf(Error);
    expectNoCredential([...printed(error), inspect(error, { depth: 10, showHidden: true }), ...lines]);
  });

  it('keeps the useful part of a foreign error: its name, code and messages', async () => {
    const fetch = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
      });
    };
    const error = (await get({ fetch, retry: false }).catch((e: unknown) => e)) as NetworkError;
    expect(error.cause).toMatchObject({ name: 'TypeError', message: 'fetch failed: connect ECONNREFUSED 127.0.0.1:9' });
    expect(error.message).toContain(
      'failed before a response arrived: fetch failed: connect ECONNREFUSED 127.0.0.1:9.',
    );
  });

  it('keeps them out of JSON.stringify and util.inspect of the client', () => {
    const client = variant === 'A' ? testClientA(server.url) : testClientB(server.url);
    expect(JSON.parse(JSON.stringify(client))).toEqual({ variant, baseUrl: server.url, credentials: '[REDACTED]' });
    expect(inspect(client)).toBe(`Variant${variant}Client { baseUrl: '${server.url}', credentials: [REDACTED] }`);
    expectNoCredential(printed(client));
  });
});

describe('construction errors', () => {
  it('name the missing option without quoting the credentials given', () => {
    const attempts = [
      () => createVariantAClient({ baseUrl: 'ftp://example.com', accessToken: credentials.accessToken }),
      () =>
        createVariantBClient({
          baseUrl: 'not a url',
          publicKey: credentials.publicKey,
          secretKey: credentials.secretKey,
        }),
      () =>
        createVariantBClient({
          baseUrl: 'https://example.com',
          publicKey: credentials.publicKey,
          secretKey: `${credentials.secretKey}\n`,
        }),
      () => createVariantAClient({ baseUrl: 'https://example.com', accessToken: `${credentials.accessToken} x` }),
    ];
    for (const attempt of attempts) {
      const error = (() => {
        try {
          attempt();
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ClientConfigError);
      expectNoCredential(printed(error));
    }
  });
});
