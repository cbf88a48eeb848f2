// Answers that break the contract are caught and named: an undeclared status, a wrong media type, a missing or
// mistyped field, a bad declared header; a webhook body likewise; and the 500 problem that reports them fits Problem.
import { describe, expect, it } from 'vitest';
import { validateProblem } from '../../packages/contract/generated/operations/validators.js';
import {
  responseProblem,
  validateResponse,
  validateWebhookBody,
} from '../../packages/contract/src/validation/index.js';
import { BundledSpec, type Node } from '../contract/bundled-spec.js';
import { exampleEvent } from '../webhooks/fixtures.js';

const spec = await BundledSpec.open('Variant B', 'variant-b');
const retrieved = spec.expand(
  spec.response(spec.operation('retrievePayment')!, '200')!.content['application/json'].examples,
) as Node;
/** A deep copy of the contract's pending payment, as retrievePayment answers it. */
const payment = () => structuredClone(Object.values(retrieved)[0].value) as { data: Record<string, unknown> };
const JSON_TYPE = { 'content-type': 'application/json' };

const check = (status: number, body: unknown, headers: Record<string, string> = JSON_TYPE) =>
  validateResponse('b', 'retrievePayment', { status, headers: new Headers(headers), body });

describe('validateResponse', () => {
  it('accepts the contract example', () => {
    expect(check(200, payment())).toEqual([]);
  });

  it('names a status the operation does not declare', () => {
    expect(check(201, payment())).toEqual([
      {
        in: 'status',
        pointer: '',
        detail:
          'Status 201 is not declared for retrievePayment; the contract declares 200, 400, 401, 404, 422, 429, 500.',
      },
    ]);
    expect(validateResponse('b', 'retrieveBalance', { status: 404, body: {} })[0]).toMatchObject({ in: 'status' });
  });

  it('names a missing required field and a field of the wrong type', () => {
    const body = payment();
    delete body.data.status;
    body.data.requested = { amount: 1500, currency: 'EUR' };
    expect(check(200, body)).toEqual([
      { in: 'body', pointer: '/data/status', detail: 'Required property "status" is missing.' },
      { in: 'body', pointer: '/data/requested/amount', detail: 'Must be a string.' },
    ]);
  });

  it('names a value outside an enum', () => {
    const body = payment();
    body.data.status = 'done';
    expect(check(200, body)).toEqual([
      { in: 'body', pointer: '/data/status', detail: expect.stringMatching(/^Must be one of "created", /) },
    ]);
  });

  it('names a wrong or missing Content-Type, and a body that is missing or not JSON', () => {
    expect(check(200, payment(), { 'content-type': 'application/problem+json' })).toEqual([
      {
        in: 'header',
        pointer: '/Content-Type',
        detail: 'Header "Content-Type" must be application/json for status 200, not application/problem+json.',
      },
    ]);
    expect(check(200, payment(), {})).toEqual([
      {
        in: 'header',
        pointer: '/Content-Type',
        detail: 'Header "Content-Type" must be application/json for status 200, but it is missing.',
      },
    ]);
    expect(check(200, undefined)).toEqual([
      { in: 'body', pointer: '', detail: 'Status 200 declares a body (application/json), but none was sent.' },
    ]);
    const raw = validateResponse('b', 'retrievePayment', {
      status: 200,
      headers: new Headers(JSON_TYPE),
      rawBody: '{"data":',
    });
    expect(raw).toEqual([{ in: 'body', pointer: '', detail: expect.stringMatching(/^The body is not valid JSON/) }]);
  });

  it('checks an error answer against Problem', () => {
    const problem = { type: 'about:blank', title: 'Not found', status: 404, code: 'Not-Found' };
    expect(check(404, problem, { 'content-type': 'application/problem+json' })).toEqual([
      { in: 'body', pointer: '/code', detail: 'Must match the pattern ^[a-z][a-z0-9_]{0,63}$.' },
    ]);
  });

  it('checks declared headers when they are sent', () => {
    const problem = { type: 'about:blank', title: 'Too many requests', status: 429, code: 'rate_limited' };
    const headers = {
      'content-type': 'application/problem+json',
      'retry-after': 'soon',
      ratelimit: '"default";r=0;t=30',
    };
    expect(check(429, problem, headers)).toEqual([
      { in: 'header', pointer: '/Retry-After', detail: 'Header "Retry-After" must be an integer.' },
    ]);
    expect(check(429, problem, { ...headers, 'retry-after': '30' })).toEqual([]);
  });
});

describe('validateWebhookBody', () => {
  it('accepts the contract example of each layout', () => {
    expect(validateWebhookBody('later', exampleEvent())).toEqual([]);
    expect(validateWebhookBody('earlier', exampleEvent('payment.status_changed', 'earlier'))).toEqual([]);
  });

  it('names what is wrong in the data of the event type', () => {
    const event = exampleEvent();
    event.data.status = 42;
    expect(validateWebhookBody('later', event)).toEqual([
      { in: 'body', pointer: '/data/status', detail: 'Must be a string.' },
    ]);
  });
});

describe('responseProblem', () => {
  it('reports violations as a 500 internal_error that fits Problem', () => {
    const violations = check(201, payment());
    const problem = responseProblem(violations, {
      instance: '/merchant/v1/payments/pay_8f3k2m9q4w7x',
      requestId: 'req_2',
    });
    expect(validateProblem(problem), JSON.stringify(validateProblem.errors)).toBe(true);
    expect(problem).toMatchObject({
      status: 500,
      code: 'internal_error',
      title: 'Internal server error',
      errors: [{ pointer: '', detail: violations[0]!.detail }],
    });
    expect(problem.detail).toBe(`The response breaks the contract: ${violations[0]!.detail}`);
    const webhook = responseProblem(
      [{ in: 'body', pointer: '/data/status', detail: 'Must be a string.' }],
      {},
      'The webhook body',
    );
    expect(webhook.detail).toBe('The webhook body breaks the contract: /data/status: Must be a string.');
  });
});
