import { describe, expect, it } from 'vitest';
import { describeProblem, hasProblemCode, isProblem, type Problem } from '../../packages/contract/src/index.js';
import { parseRetryAfter } from '../../packages/contract/src/client/backoff.js';

const reused: Problem = {
  type: 'https://docs.payments.example/problems/idempotency_key_reused',
  title: 'Idempotency-Key reused',
  status: 422,
  code: 'idempotency_key_reused',
  detail: 'This Idempotency-Key was used with a different request body.',
  request_id: 'req_7Hq2Lm9Xp4Zt',
};

describe('isProblem', () => {
  it('accepts a problem+json body with its required members', () => {
    expect(isProblem(reused)).toBe(true);
    expect(isProblem({ ...reused, errors: [{ pointer: '/amount', detail: 'Must be a decimal string.' }] })).toBe(true);
  });

  it.each([
    ['an HTML page', '<html>Bad gateway</html>'],
    ['null', null],
    ['a body without code', { type: 'about:blank', title: 'Bad', status: 400 }],
    ['a status that is a string', { ...reused, status: '422' }],
    ['errors that are not a list', { ...reused, errors: 'amount' }],
  ])('refuses %s', (_what, value) => {
    expect(isProblem(value)).toBe(false);
  });
});

describe('hasProblemCode', () => {
  it('is true only for a Problem with that code', () => {
    expect(hasProblemCode(reused, 'idempotency_key_reused')).toBe(true);
    expect(hasProblemCode(reused, 'validation_failed')).toBe(false);
    expect(hasProblemCode({ code: 'idempotency_key_reused' }, 'idempotency_key_reused')).toBe(false);
  });
});

describe('describeProblem', () => {
  it('gives status, code, detail, field errors and request id on one line', () => {
    const problem = {
      ...reused,
      status: 422,
      code: 'validation_failed',
      errors: [{ pointer: '/amount', detail: 'Must be a decimal string.' }],
    };
    expect(describeProblem(problem)).toBe(
      '422 validation_failed: This Idempotency-Key was used with a different request body. [/amount: Must be a decimal string.] (request_id req_7Hq2Lm9Xp4Zt)',
    );
  });

  it('falls back to the title without detail or request id', () => {
    expect(describeProblem({ type: 'about:blank', title: 'Not found', status: 404, code: 'not_found' })).toBe(
      '404 not_found: Not found',
    );
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-15T10:00:00Z');
  it.each([
    ['120', 120_000],
    [' 3 ', 3000],
    ['Thu, 15 Jan 2026 10:00:30 GMT', 30_000],
    ['Thu, 15 Jan 2026 09:59:00 GMT', 0],
    ['soon', undefined],
    [null, undefined],
  ])('reads %j as %j ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });
});
