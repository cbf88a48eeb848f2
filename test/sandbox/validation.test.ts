// Validation is on by default (createSandbox with no `validate`): requests are judged by the contract's precompiled
// validators in the order packages/contract/src/validation/README.md gives, and responses and webhook bodies that break it are named.
import { afterEach, describe, expect, it } from 'vitest';
import { contractValidators, createSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { METADATA_BOUNDS } from '../../packages/sandbox/src/core/metadata.js';
import { BundledSpec } from '../contract/bundled-spec.js';
import { call, ORIGIN, paymentBody } from './fixtures.js';

const shared = await BundledSpec.open('shared', 'shared');

const sandboxes: Sandbox[] = [];
const plain = (options: Parameters<typeof createSandbox>[0] = {}) => {
  const sandbox = createSandbox({ seed: 'validation', ...options });
  sandboxes.push(sandbox);
  return sandbox;
};
afterEach(async () => {
  await Promise.all(sandboxes.splice(0).map((s) => s.close()));
});
const a = { authorization: 'Bearer token-v' };
const keyed = { ...a, 'idempotency-key': 'key-1' };

async function problem(response: Response) {
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  const body = (await response.json()) as {
    status: number;
    code: string;
    detail: string;
    errors?: { pointer: string; detail: string }[];
  };
  expect(body.status).toBe(response.status);
  return body;
}

describe('validation by default', () => {
  it('answers 422 validation_failed naming every violation of a create body', async () => {
    const sandbox = plain();
    const response = await call(sandbox, 'POST', '/payments', keyed, { amount: '42,50', currency: 'EUR', extra: 1 });
    const body = await problem(response);
    expect([response.status, body.code]).toEqual([422, 'validation_failed']);
    expect(body.errors!.map((e) => e.pointer).sort()).toEqual(['/amount', '/extra', '/requisite']);
    expect(body.detail).toBe('The request breaks the contract in 3 places; see errors.');
    // Nothing ran: the tenant has no payment.
    const list = await (await call(sandbox, 'GET', '/payments', a)).json();
    expect(list.pagination.total).toBe(0);
  });

  it('answers metadata nested 3,500 deep with 422 validation_failed naming /metadata/a, not a 500, and stores nothing', async () => {
    const sandbox = plain();
    const depth = 3500;
    const body = `{"amount":"1.00","currency":"EUR","requisite":{"type":"card"},"metadata":${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}}`;
    const response = await call(sandbox, 'POST', '/payments', keyed, body);
    const problemBody = await problem(response);
    expect([response.status, problemBody.code, problemBody.errors]).toEqual([
      422,
      'validation_failed',
      [{ pointer: '/metadata/a', detail: 'Must be a string.' }],
    ]);
    const list = await (await call(sandbox, 'GET', '/payments', a)).json();
    expect(list.pagination.total).toBe(0);
  });

  it('answers metadata past its bounds with 422 naming the pointer, on every create', async () => {
    const sandbox = plain();
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    const cases = [
      ['/payments', paymentBody({ metadata: tooMany }), '/metadata', 'Must have at most 50 properties.'],
      [
        '/payouts',
        {
          amount: '1.00',
          currency: 'EUR',
          requisite: { type: 'card', card_number: '4111111111111111' },
          metadata: { note: 'v'.repeat(501) },
        },
        '/metadata/note',
        'Must be a string of at most 500 characters.',
      ],
      [
        '/appeals',
        { transaction_id: 'pay_1', amount: '1.00', currency: 'EUR', metadata: { nested: { a: 'b' } } },
        '/metadata/nested',
        'Must be a string.',
      ],
    ] as const;
    for (const [path, body, pointer, detail] of cases) {
      const response = await call(sandbox, 'POST', path, { ...a, 'idempotency-key': `k${path.slice(1)}` }, body);
      const problemBody = await problem(response);
      expect([response.status, problemBody.code, problemBody.errors], path).toEqual([
        422,
        'validation_failed',
        [{ pointer, detail }],
      ]);
    }
  });

  it('answers 401 before looking at a body, however bad', async () => {
    const response = await call(plain(), 'POST', '/payments', {}, '{"amount":');
    expect([response.status, (await problem(response)).code]).toEqual([401, 'unauthorized']);
  });

  it('answers 400 bad_request to malformed JSON before a missing Idempotency-Key', async () => {
    const response = await call(plain(), 'POST', '/payments', a, '{"amount":');
    const body = await problem(response);
    expect([response.status, body.code, body.errors?.[0]?.pointer]).toEqual([400, 'bad_request', '']);
  });

  it('answers 400 bad_request to a body sent where the operation takes none, and to a Content-Type it does not take', async () => {
    const sandbox = plain();
    const created = await (await call(sandbox, 'POST', '/payments', keyed, paymentBody())).json();
    const refund = await call(
      sandbox,
      'POST',
      `/payments/${created.data.id}/refund`,
      { ...a, 'idempotency-key': 'r' },
      { amount: '1.00' },
    );
    const refundBody = await problem(refund);
    expect([refund.status, refundBody.code, refundBody.detail]).toEqual([
      400,
      'bad_request',
      'This operation takes no request body.',
    ]);
    const typed = await sandbox.fetch(
      new Request(`${ORIGIN}/payments`, {
        method: 'POST',
        headers: { ...a, 'idempotency-key': 'typed', 'content-type': 'text/plain' },
        body: JSON.stringify(paymentBody()),
      }),
    );
    const typedBody = await problem(typed);
    expect([typed.status, typedBody.code, typedBody.errors?.[0]?.pointer]).toEqual([
      400,
      'bad_request',
      '/Content-Type',
    ]);
  });

  it('answers 400 idempotency_key_missing before 422, pointing at /Idempotency-Key', async () => {
    const response = await call(plain(), 'POST', '/payments', a, { amount: 'x' });
    const body = await problem(response);
    expect([response.status, body.code, body.errors]).toEqual([
      400,
      'idempotency_key_missing',
      [{ pointer: '/Idempotency-Key', detail: 'Header "Idempotency-Key" is required.' }],
    ]);
  });

  it('names query and path parameters by /name', async () => {
    const sandbox = plain();
    const list = await problem(
      await call(sandbox, 'GET', '/merchant/v1/payments?limit=0&offset=-1', {
        'x-public-key': 'p',
        'x-secret-key': 's',
      }),
    );
    expect(list.errors!.map((e) => e.pointer)).toEqual(['/limit', '/offset']);
    const retrieve = await call(sandbox, 'GET', `/merchant/v1/payments/${'x'.repeat(200)}`, {
      'x-public-key': 'p',
      'x-secret-key': 's',
    });
    const body = await problem(retrieve);
    expect([retrieve.status, body.code, body.errors?.[0]?.pointer]).toEqual([422, 'validation_failed', '/paymentId']);
  });

  it('lets a key rejected by the check be used again once the request is fixed', async () => {
    const sandbox = plain();
    expect((await call(sandbox, 'POST', '/payments', keyed, { amount: 'x' })).status).toBe(422);
    const fixed = await call(sandbox, 'POST', '/payments', keyed, paymentBody());
    expect([fixed.status, fixed.headers.get('idempotent-replayed')]).toEqual([200, null]);
  });

  it('turns a response that breaks the contract into a 500 problem that names the violation', async () => {
    const sandbox = plain({
      validate: {
        response: (check) =>
          check.status === 200 ? [{ pointer: '/data/status', detail: 'Must be one of the statuses.' }] : undefined,
      },
    });
    const response = await call(sandbox, 'GET', '/balance', a);
    const body = await problem(response);
    expect([response.status, body.code, body.errors]).toEqual([
      500,
      'internal_error',
      [{ pointer: '/data/status', detail: 'Must be one of the statuses.' }],
    ]);
    expect(body.detail).toContain('retrieveBalance');
  });

  it('finds what a broken payment, problem or webhook body breaks, with the contract’s own validators', async () => {
    const operation = { variant: 'A', operationId: 'retrievePayment', method: 'GET', path: '/payments/{id}' } as const;
    const headers = new Headers({ 'content-type': 'application/json' });
    const broken = await contractValidators.response!({
      operation,
      status: 200,
      headers,
      body: { data: { id: 'pay_1' } },
    });
    expect(broken?.map((e) => e.pointer)).toContain('/data/status');
    const undeclared = await contractValidators.response!({ operation, status: 418, headers, body: {} });
    expect(undeclared?.[0]?.detail).toMatch(/^Status 418 is not declared for retrievePayment/);
    const hook = await contractValidators.webhook!({
      layout: 'later',
      headers: {},
      body: { id: 'evt_1', type: 'payment.status_changed' },
    });
    expect(hook?.map((e) => e.pointer)).toContain('/created_at');
  });

  it('keeps metadata within its bounds in the core too, when validation is off: 422 at /metadata/a for 10,000 levels', async () => {
    const sandbox = plain({ validate: false });
    const depth = 10_000;
    const body = `{"amount":"1.00","currency":"EUR","requisite":{"type":"card"},"metadata":${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}}`;
    const response = await call(sandbox, 'POST', '/payments', keyed, body);
    const deep = await problem(response);
    expect([response.status, deep.code, deep.errors]).toEqual([
      422,
      'validation_failed',
      [{ pointer: '/metadata/a', detail: 'Must be a string of at most 500 characters without control characters.' }],
    ]);
    const many = await call(
      sandbox,
      'POST',
      '/payouts',
      { ...a, 'idempotency-key': 'many' },
      {
        amount: '1.00',
        currency: 'EUR',
        requisite: { type: 'card' },
        metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])),
      },
    );
    expect([many.status, (await problem(many)).errors]).toEqual([
      422,
      [{ pointer: '/metadata', detail: 'Must have at most 50 properties.' }],
    ]);
  });

  it('holds the core’s metadata bounds to the contract’s Metadata schema', () => {
    const schema = shared.doc.components.schemas.Metadata;
    expect(METADATA_BOUNDS).toEqual({
      maxKeys: schema.maxProperties,
      maxKeyLength: schema.propertyNames.maxLength,
      maxValueLength: schema.additionalProperties.maxLength,
    });
    expect([schema.propertyNames.minLength, schema.propertyNames.pattern, schema.additionalProperties.pattern]).toEqual(
      [1, '^[^\\x00-\\x1F\\x7F]*$', '^[^\\x00-\\x1F\\x7F]*$'],
    );
  });

  it('can be turned off with validate: false, leaving the core’s own checks', async () => {
    const response = await call(plain({ validate: false }), 'GET', '/merchant/v1/payouts?limit=500', {
      'x-public-key': 'p',
      'x-secret-key': 's',
    });
    const body = await problem(response);
    expect([response.status, body.errors]).toEqual([422, [{ pointer: '/limit', detail: 'An integer from 1 to 100.' }]]);
  });
});
