// Bad requests get the status and code the contract gives them, and violations that name what is actually wrong.
import { describe, expect, it } from 'vitest';
import { validateProblem } from '../../packages/contract/generated/operations/validators.js';
import {
  parametersFit,
  requestProblem,
  validateRequest,
  type RequestInput,
  type RequestValidation,
  type Variant,
} from '../../packages/contract/src/validation/index.js';

const KEY = { 'Idempotency-Key': 'key_1' };
const JSON_TYPE = { 'Content-Type': 'application/json' };
const PAYMENT = { amount: '42.50', currency: 'EUR', requisite: { type: 'card' } };

const create = (body: unknown, headers: Record<string, string> = { ...KEY, ...JSON_TYPE }, variant: Variant = 'b') =>
  validateRequest(variant, 'createPayment', {
    headers: new Headers(headers),
    rawBody: typeof body === 'string' ? body : JSON.stringify(body),
  });
const list = (query: string) => validateRequest('b', 'listPayments', { query: new URLSearchParams(query) });

/** The rejection, failing the test when the request was accepted. */
function rejected(result: RequestValidation) {
  if (result.ok) throw new Error('the request was accepted');
  return result;
}

describe('validateRequest', () => {
  it('accepts a valid payment in both variants and returns the parsed body', () => {
    for (const variant of ['a', 'b'] as const) {
      expect(create(PAYMENT, { ...KEY, ...JSON_TYPE }, variant)).toEqual({
        ok: true,
        request: {
          path: {},
          query: {},
          headers: { 'Idempotency-Key': 'key_1' },
          body: PAYMENT,
          mediaType: 'application/json',
        },
      });
    }
  });

  it('names a bad amount by its pointer: 422 validation_failed', () => {
    const { status, code, violations } = rejected(create({ ...PAYMENT, amount: '42,50' }));
    expect({ status, code }).toEqual({ status: 422, code: 'validation_failed' });
    expect(violations).toEqual([
      { in: 'body', pointer: '/amount', detail: 'Must match the pattern ^(0|[1-9][0-9]*)(\\.[0-9]{1,8})?$.' },
    ]);
  });

  it('names an unknown property where additionalProperties is false, at any depth', () => {
    const { violations } = rejected(create({ ...PAYMENT, foo: 1, requisite: { type: 'card', card_number: '4111' } }));
    expect(violations).toEqual([
      { in: 'body', pointer: '/foo', detail: 'Unknown property "foo".' },
      { in: 'body', pointer: '/requisite/card_number', detail: 'Unknown property "card_number".' },
    ]);
  });

  it('lists every violation at once: missing, mistyped and too long', () => {
    const { violations } = rejected(create({ amount: 42.5, requisite: { type: 'card', bank: 'x'.repeat(300) } }));
    expect(violations).toEqual(
      expect.arrayContaining([
        { in: 'body', pointer: '/currency', detail: 'Required property "currency" is missing.' },
        { in: 'body', pointer: '/amount', detail: 'Must be a string.' },
        {
          in: 'body',
          pointer: '/requisite/bank',
          detail: expect.stringMatching(/^Must be a string of at most \d+ characters\.$/),
        },
      ]),
    );
    expect(violations).toHaveLength(3);
  });

  it.each([
    ['limit=0', 'Query parameter "limit" must be at least 1.'],
    ['limit=101', 'Query parameter "limit" must be at most 100.'],
    ['limit=ten', 'Query parameter "limit" must be an integer.'],
    ['limit=1.5', 'Query parameter "limit" must be an integer.'],
    ['limit=', 'Query parameter "limit" must be an integer.'],
    ['limit=5&limit=6', 'Query parameter "limit" must be given once, not 2 times.'],
  ])('rejects %s with 422 naming /limit', (query, detail) => {
    expect(rejected(list(query))).toEqual({
      ok: false,
      status: 422,
      code: 'validation_failed',
      violations: [{ in: 'query', pointer: '/limit', detail }],
    });
  });

  it('holds metadata to its bounds: 50 keys of 1 to 40 characters, string values of at most 500', () => {
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`.padEnd(40, 'x'), 'v'.repeat(500)]));
    expect(create({ ...PAYMENT, metadata: fifty }).ok).toBe(true);
    const { status, code, violations } = rejected(create({ ...PAYMENT, metadata: { ...fifty, one_more: 'v' } }));
    expect({ status, code, violations }).toEqual({
      status: 422,
      code: 'validation_failed',
      violations: [{ in: 'body', pointer: '/metadata', detail: 'Must have at most 50 properties.' }],
    });
    const long = 'k'.repeat(41);
    expect(rejected(create({ ...PAYMENT, metadata: { [long]: 'v' } })).violations).toEqual([
      {
        in: 'body',
        pointer: `/metadata/${long}`,
        detail: `Property name "${long}" must be a string of at most 40 characters.`,
      },
    ]);
    expect(rejected(create({ ...PAYMENT, metadata: { note: 'v'.repeat(501) } })).violations).toEqual([
      { in: 'body', pointer: '/metadata/note', detail: 'Must be a string of at most 500 characters.' },
    ]);
    expect(rejected(create({ ...PAYMENT, metadata: { count: 1 } })).violations).toEqual([
      { in: 'body', pointer: '/metadata/count', detail: 'Must be a string.' },
    ]);
  });

  it('answers metadata nested 40,000 deep with 422 naming its first level, without overflowing the stack', () => {
    const depth = 40_000;
    const body = `{"amount":"1.00","currency":"EUR","requisite":{"type":"card"},"metadata":${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}}`;
    const { status, code, violations } = rejected(create(body));
    expect({ status, code, violations }).toEqual({
      status: 422,
      code: 'validation_failed',
      violations: [{ in: 'body', pointer: '/metadata/a', detail: 'Must be a string.' }],
    });
  });

  it('reads query parameters as integers, fills in defaults and checks enums', () => {
    expect(list('limit=100&offset=40&status=pending&unknown=1')).toEqual({
      ok: true,
      request: {
        path: {},
        query: { limit: 100, offset: 40, status: 'pending' },
        headers: {},
        body: undefined,
        mediaType: undefined,
      },
    });
    expect(list('')).toMatchObject({ ok: true, request: { query: { limit: 20, offset: 0 } } });
    const { violations } = rejected(list('status=paid'));
    expect(violations).toEqual([
      {
        in: 'query',
        pointer: '/status',
        detail: expect.stringMatching(/^Query parameter "status" must be one of "created", "pending", /),
      },
    ]);
  });

  it('answers a missing Idempotency-Key with 400 idempotency_key_missing, and finds the header whatever its case', () => {
    expect(rejected(create(PAYMENT, JSON_TYPE))).toEqual({
      ok: false,
      status: 400,
      code: 'idempotency_key_missing',
      violations: [{ in: 'header', pointer: '/Idempotency-Key', detail: 'Header "Idempotency-Key" is required.' }],
    });
    expect(create(PAYMENT, { 'idempotency-key': 'key_1', 'content-type': 'Application/JSON; charset=utf-8' }).ok).toBe(
      true,
    );
  });

  it('answers a malformed Idempotency-Key with 422 naming the header', () => {
    const { status, violations } = rejected(create(PAYMENT, { ...JSON_TYPE, 'Idempotency-Key': 'key with spaces' }));
    expect(status).toBe(422);
    expect(violations).toEqual([
      {
        in: 'header',
        pointer: '/Idempotency-Key',
        detail: 'Header "Idempotency-Key" must match the pattern ^[A-Za-z0-9_-]{1,64}$.',
      },
    ]);
  });

  it.each([
    ['malformed JSON', '{"amount": "1.00",', /^The body is not valid JSON \(.+\)\.$/],
    ['a __proto__ key', '{"__proto__": {"admin": true}}', /__proto__/],
    ['a second document', '{} {}', /^The body is not valid JSON/],
  ])('answers %s with 400 bad_request', (_name, body, detail) => {
    expect(rejected(create(body))).toEqual({
      ok: false,
      status: 400,
      code: 'bad_request',
      violations: [{ in: 'body', pointer: '', detail: expect.stringMatching(detail) }],
    });
  });

  it('answers bytes that are not UTF-8 with 400 bad_request', () => {
    const result = validateRequest('b', 'createPayment', {
      headers: new Headers({ ...KEY, ...JSON_TYPE }),
      rawBody: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect(rejected(result).violations).toEqual([{ in: 'body', pointer: '', detail: 'The body is not valid UTF-8.' }]);
  });

  it('answers a wrong or missing Content-Type with 400 bad_request naming the header', () => {
    expect(rejected(create(PAYMENT, { ...KEY, 'Content-Type': 'text/plain' }))).toEqual({
      ok: false,
      status: 400,
      code: 'bad_request',
      violations: [
        {
          in: 'header',
          pointer: '/Content-Type',
          detail: 'Header "Content-Type" must be application/json, not text/plain.',
        },
      ],
    });
    expect(rejected(create(PAYMENT, KEY)).violations).toEqual([
      { in: 'header', pointer: '/Content-Type', detail: 'Header "Content-Type" must be application/json with a body.' },
    ]);
  });

  it('takes an already parsed body as JSON when no Content-Type is given', () => {
    const input: RequestInput = { headers: new Headers(KEY), body: PAYMENT };
    expect(validateRequest('b', 'createPayment', input)).toMatchObject({
      ok: true,
      request: { body: PAYMENT, mediaType: 'application/json' },
    });
  });

  it('answers a missing required body with 422, and a body where none is taken with 400', () => {
    expect(rejected(create(''))).toEqual({
      ok: false,
      status: 422,
      code: 'validation_failed',
      violations: [{ in: 'body', pointer: '', detail: 'A request body is required.' }],
    });
    const refund = (rawBody: string) =>
      validateRequest('b', 'refundPayment', {
        params: { paymentId: 'pay_8f3k2m9q4w7x' },
        headers: new Headers({ ...KEY, ...JSON_TYPE }),
        rawBody,
      });
    expect(refund(' \n').ok).toBe(true);
    expect(rejected(refund('{"amount": "10.00"}'))).toEqual({
      ok: false,
      status: 400,
      code: 'bad_request',
      violations: [{ in: 'body', pointer: '', detail: 'This operation takes no request body.' }],
    });
  });

  it('checks path parameters against their schema', () => {
    const result = validateRequest('b', 'retrievePayment', { params: { paymentId: 'pay 1' } });
    expect(rejected(result).violations).toEqual([
      {
        in: 'path',
        pointer: '/paymentId',
        detail: expect.stringMatching(/^Path parameter "paymentId" must match the pattern /),
      },
    ]);
    expect(validateRequest('a', 'retrievePayment', { params: { id: 'pay_8f3k2m9q4w7x' } })).toMatchObject({
      ok: true,
      request: { path: { id: 'pay_8f3k2m9q4w7x' } },
    });
  });

  it('checks Variant A confirm: path, key and its own body', () => {
    const confirm = (body: unknown) =>
      validateRequest('a', 'confirmPayment', {
        params: { id: 'pay_8f3k2m9q4w7x' },
        headers: new Headers({ ...KEY, ...JSON_TYPE }),
        rawBody: JSON.stringify(body),
      });
    expect(confirm({ reference: 'TR-1' }).ok).toBe(true);
    expect(rejected(confirm({ receipt: {} })).violations).toContainEqual({
      in: 'body',
      pointer: '/reference',
      detail: 'Required property "reference" is missing.',
    });
  });

  it('throws on an operationId the variant does not have', () => {
    expect(() => validateRequest('b', 'confirmPayment', {})).toThrow(/Variant b has no operation confirmPayment/);
  });

  it('builds a problem+json body that fits the Problem schema and carries every violation', () => {
    const rejection = rejected(create({ ...PAYMENT, amount: '1,00', foo: 1 }));
    const problem = requestProblem(rejection, { instance: '/merchant/v1/payments', requestId: 'req_1' });
    expect(validateProblem(problem), JSON.stringify(validateProblem.errors)).toBe(true);
    expect(problem).toMatchObject({
      type: 'https://docs.payments.example/problems/validation_failed',
      title: 'Unprocessable request',
      status: 422,
      code: 'validation_failed',
      instance: '/merchant/v1/payments',
      request_id: 'req_1',
      detail: 'The request breaks the contract in 2 places; see errors.',
    });
    expect(problem.errors).toEqual(rejection.violations.map(({ pointer, detail }) => ({ pointer, detail })));
    const single = requestProblem(rejected(create(PAYMENT, JSON_TYPE)));
    expect(single).toMatchObject({
      status: 400,
      code: 'idempotency_key_missing',
      title: 'Idempotency-Key missing',
      detail: 'Header "Idempotency-Key" is required.',
    });
  });
});

describe('parametersFit', () => {
  it("judges a request's path and query alone, before its headers and body are read", () => {
    // Note: no Idempotency-Key and no body, which validateRequest would refuse; the parameters fit.
    expect(parametersFit('a', 'createPayment', {})).toBe(true);
    expect(parametersFit('a', 'retrievePayment', { params: { id: 'pay_1' } })).toBe(true);
    expect(parametersFit('b', 'listPayments', { query: new URLSearchParams('limit=100&offset=2147483647') })).toBe(
      true,
    );
  });

  it('refuses an id PostgreSQL would refuse, and an offset past the range or not an integer', () => {
    expect(parametersFit('a', 'retrievePayment', { params: { id: 'pay_\u0000x' } })).toBe(false);
    expect(parametersFit('b', 'retrievePayment', { params: { paymentId: 'pay_\ufffd' } })).toBe(false);
    for (const offset of ['9223372036854775807', '1e308', '-1', '2147483648'])
      expect(parametersFit('a', 'listPayments', { query: new URLSearchParams({ offset }) }), offset).toBe(false);
    expect(parametersFit('sandbox', 'listEvents', { query: new URLSearchParams({ offset: '1e308' }) })).toBe(false);
  });
});
