// problemDetails gives the contract's status, title and type for its codes, and a body that fits Problem whatever
// text it is given.
import { describe, expect, it } from 'vitest';
import { validateProblem } from '../../packages/contract/generated/operations/validators.js';
import { problemCatalogue, problemDetails } from '../../packages/contract/src/validation/index.js';

const fits = (problem: unknown) => expect(validateProblem(problem), JSON.stringify(validateProblem.errors)).toBe(true);

describe('problemDetails', () => {
  it.each(Object.keys(problemCatalogue))('builds %s with the status, title and type the contract shows', (code) => {
    const problem = problemDetails({ code, detail: 'What happened.' });
    expect(problem).toEqual({ ...problemCatalogue[code], detail: 'What happened.', code });
    fits(problem);
  });

  it('holds the codes request validation and idempotency answer with, at their statuses', () => {
    const statuses = Object.fromEntries(Object.entries(problemCatalogue).map(([code, { status }]) => [code, status]));
    expect(statuses).toMatchObject({
      bad_request: 400,
      idempotency_key_missing: 400,
      validation_failed: 422,
      idempotency_key_reused: 422,
      idempotency_request_in_progress: 409,
      internal_error: 500,
    });
  });

  it('fits Problem with hostile text: control characters, overlong fields, many errors, an instance that is no URI', () => {
    const errors = Array.from({ length: 150 }, (_, i) => ({
      pointer: `/items/${i}/${'x'.repeat(600)}`,
      detail: `bad\u0000\n\u007f ${'y'.repeat(2000)}`,
    }));
    const problem = problemDetails({
      code: 'validation_failed',
      detail: `line\nbreak\u0007${'z'.repeat(5000)}`,
      instance: '/payments/a b/%zz/\u00e9\ud800',
      requestId: 'req_1',
      errors,
    });
    fits(problem);
    expect(problem.errors).toHaveLength(100);
    expect(problem.errors?.at(-1)).toEqual({ pointer: '', detail: 'And 51 more violations, not listed.' });
    expect(problem.detail).toMatch(/^line\\u000abreak\\u0007z+…$/);
    expect(problem.instance).toBe('/payments/a%20b/%25zz/%C3%A9%EF%BF%BD');
  });

  it('takes a code the contract does not list when its status and title are given', () => {
    const problem = problemDetails({
      code: 'limit_reached',
      status: 422,
      title: 'Limit reached',
      detail: 'The tenant has too many faults waiting.',
    });
    expect(problem).toMatchObject({ type: 'about:blank', status: 422 });
    fits(problem);
    expect(() => problemDetails({ code: 'limit_reached', detail: 'x' })).toThrow(/give its status and title/);
  });

  it('refuses what Problem cannot hold: a code that is not snake_case, a status outside 400-599, a bad request id', () => {
    expect(() => problemDetails({ code: 'Not-Found', detail: 'x' })).toThrow(/snake_case/);
    expect(() => problemDetails({ code: 'teapot', status: 200, title: 'OK', detail: 'x' })).toThrow(/400-599/);
    expect(() => problemDetails({ code: 'not_found', detail: 'x', requestId: 'req 1' })).toThrow(/request id/);
  });
});
