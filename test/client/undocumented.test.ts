// Error answers the contract does not describe: returned as UndocumentedErrorBody, printed without `undefined`.
import { describe, expect, it } from 'vitest';
import {
  describeProblem,
  isProblem,
  isUndocumentedErrorBody,
  paginate,
  ProblemError,
  type Problem,
} from '../../packages/contract/src/index.js';
import { credentials, testClientA, testClientB } from './harness.js';

const BASE = 'http://127.0.0.1:9';

/** A client whose every call is answered with this status, body and content type, in process. */
function answering(status: number, body: BodyInit | null, contentType?: string) {
  const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
  return testClientA(BASE, { retry: false, fetch: async () => new Response(body, { status, headers }) });
}

/** The error of a call that must have failed. */
function errorOf<Body>(result: { error?: Body }): NonNullable<Body> {
  if (result.error === undefined || result.error === null)
    throw new Error('expected the call to fail with an error body');
  return result.error;
}

const notFound: Problem = {
  type: 'https://docs.payments.example/problems/not_found',
  title: 'Not found',
  status: 404,
  code: 'not_found',
  detail: 'No payment pay_1.',
};

describe('an error body the contract does not describe', () => {
  it("comes back as an UndocumentedErrorBody with status, content type and an excerpt, for a proxy's HTML page", async () => {
    const html = '<html>\n<body><h1>404 Not Found</h1>nginx</body>\n</html>';
    const result = await answering(404, html, 'text/html; charset=utf-8').GET('/payments/{id}', {
      params: { path: { id: 'pay_1' } },
    });
    expect([result.data, result.response.status]).toEqual([undefined, 404]);
    const error = errorOf(result);
    expect(isProblem(error)).toBe(false);
    expect(isUndocumentedErrorBody(error)).toBe(true);
    expect(error).toEqual({
      undocumented: true,
      status: 404,
      contentType: 'text/html; charset=utf-8',
      body: html,
      excerpt: '<html> <body><h1>404 Not Found</h1>nginx</body> </html>',
    });
    expect(error.code).toBeUndefined();
    expect(describeProblem(error)).toBe(
      '404 answer the contract does not describe (text/html; charset=utf-8): "<html> <body><h1>404 Not Found</h1>nginx</body> </html>"',
    );
  });

  it('keeps a JSON body that is not a Problem, parsed, and prints it without undefined', async () => {
    const error = errorOf(
      await answering(404, '{"message":"no Route matched with those values"}', 'application/json').GET('/payments'),
    );
    expect(error).toMatchObject({
      undocumented: true,
      status: 404,
      body: { message: 'no Route matched with those values' },
    });
    const line = describeProblem(error);
    expect(line).toBe(
      '404 answer the contract does not describe (application/json): "{"message":"no Route matched with those values"}"',
    );
    expect(line).not.toContain('undefined');
  });

  it('sets error on an answer with an empty body, which openapi-fetch leaves undefined', async () => {
    for (const body of [null, new Uint8Array(0)]) {
      const error = errorOf(await answering(502, body).GET('/payments'));
      expect(error).toEqual({ undocumented: true, status: 502, contentType: undefined, body: undefined, excerpt: '' });
      expect(describeProblem(error)).toBe('502 answer the contract does not describe (no content type, empty body)');
    }
  });

  it('bounds the excerpt and keeps credentials out of it', async () => {
    const echo = `Unauthorized: X-Secret-Key ${credentials.secretKey} ${'x'.repeat(5000)}`;
    const client = testClientB(BASE, {
      retry: false,
      fetch: async () => new Response(echo, { status: 401, headers: { 'Content-Type': 'text/plain' } }),
    });
    const { error } = await client.GET('/merchant/v1/payments');
    if (!isUndocumentedErrorBody(error)) throw new Error('expected an undocumented body');
    expect(error.excerpt).toBe(`Unauthorized: X-Secret-Key [REDACTED] ${'x'.repeat(200 - 38)}…`);
    expect(describeProblem(error)).not.toContain(credentials.secretKey);
  });

  it('leaves a Problem body as it came', async () => {
    const error = errorOf(await answering(404, JSON.stringify(notFound), 'application/problem+json').GET('/payments'));
    expect(error).toEqual(notFound);
    expect(describeProblem(error)).toBe('404 not_found: No payment pay_1.');
  });

  it('names what came back in the ProblemError of a failed page', async () => {
    const client = answering(503, '<h1>Service Unavailable</h1>', 'text/html');
    const failure = await paginate(client, '/payments')
      .next()
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProblemError);
    expect((failure as ProblemError).problem).toBeUndefined();
    expect((failure as ProblemError).message).toBe(
      'GET /payments at offset 0 answered 503 answer the contract does not describe (text/html): "<h1>Service Unavailable</h1>".',
    );
  });
});

describe('describeProblem on a raw value (from JavaScript)', () => {
  it.each([
    ['a string', '<html>Bad gateway</html>', 'a body the contract does not describe: "<html>Bad gateway</html>"'],
    ['an object', { message: 'nope' }, 'a body the contract does not describe: "{"message":"nope"}"'],
    ['an empty string', '', 'an empty body the contract does not describe'],
    // A successful call's `error`: no body at all, empty or not.
    ['undefined', undefined, 'no error: the call succeeded, so its result has no error to describe'],
    ['null', null, 'no error: the call succeeded, so its result has no error to describe'],
  ])('describes %s without printing undefined', (_what, value, line) => {
    expect(describeProblem(value as unknown as Problem)).toBe(line);
  });
});
