// Each answer has exactly its variant's shape from the contract, inside the contract's wrappers; every answer here is
// also checked against the bundled spec by the fixtures' Ajv checks, which turn a violation into a 500.
import { describe, expect, it } from 'vitest';
import { call, clientA, clientB, newSandbox, paymentBody } from './fixtures.js';

const keys = (value: object) => Object.keys(value).sort();
const CORE = [
  'created_at',
  'expires_at',
  'id',
  'initialized',
  'processed',
  'refunded',
  'requested',
  'requisite',
  'status',
  'type',
];

describe('Variant A shapes', () => {
  it('create and retrieve carry reason_code and the list requisite; list items carry no reason_code', async () => {
    const client = clientA(newSandbox());
    const created = (await client.POST('/payments', { body: paymentBody() })).data!.data;
    const retrieved = (await client.GET('/payments/{id}', { params: { path: { id: created.id } } })).data!.data;
    const listed = (await client.GET('/payments')).data!;
    expect(keys(created)).toEqual([...CORE, 'reason_code', 'updated_at'].sort());
    expect(retrieved).toEqual(created);
    expect(keys(retrieved.requisite)).toEqual(['bank', 'card_holder', 'card_number', 'type']);
    expect(keys(listed)).toEqual(['data', 'pagination']);
    expect(keys(listed.data[0]!)).toEqual([...CORE, 'updated_at'].sort());
    expect(listed.pagination).toEqual({ total: 1, limit: 20, offset: 0 });
  });

  it('confirm answers the confirmed shape: card and holder, reason_code, finalized_at in place of updated_at', async () => {
    const sandbox = newSandbox();
    const client = clientA(sandbox);
    const created = (await client.POST('/payments', { body: paymentBody({ amount: '9.05' }) })).data!.data;
    await sandbox.advance({ accessToken: 'token-a' }, 5);
    const confirmed = await client.POST('/payments/{id}/confirm', {
      params: { path: { id: created.id } },
      body: { reference: 'transfer-1' },
    });
    const data = confirmed.data!.data;
    expect(keys(data)).toEqual([...CORE, 'finalized_at', 'reason_code'].sort());
    expect(data.requisite).toEqual({
      type: 'card',
      card: created.requisite.card_number,
      holder: created.requisite.card_holder,
      bank: created.requisite.bank,
    });
    expect([data.status, data.reason_code, data.finalized_at]).toEqual(['succeeded', null, '2026-01-01T00:00:05Z']);
  });
});

describe('Variant B shapes', () => {
  it('every payment has the one shape: card_number and card_holder, updated_at, no reason_code', async () => {
    const client = clientB(newSandbox());
    const created = (await client.POST('/merchant/v1/payments', { body: paymentBody() })).data!.data;
    const retrieved = (
      await client.GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: created.id } } })
    ).data!.data;
    const canceled = (
      await client.POST('/merchant/v1/payments/{paymentId}/cancel', { params: { path: { paymentId: created.id } } })
    ).data!.data;
    const listed = (await client.GET('/merchant/v1/payments')).data!.data;
    for (const payment of [created, retrieved, canceled, listed[0]!])
      expect(keys(payment)).toEqual([...CORE, 'updated_at'].sort());
    expect(canceled.status).toBe('canceled');
  });

  it('has no confirm operation and no unprefixed paths', async () => {
    const sandbox = newSandbox();
    const b = { 'x-public-key': 'pk', 'x-secret-key': 'sk', 'idempotency-key': 'k1' };
    expect((await call(sandbox, 'POST', '/merchant/v1/payments/pay_1/confirm', b, { reference: 'r' })).status).toBe(
      404,
    );
    expect((await call(sandbox, 'GET', '/payments', b)).status).toBe(401);
  });

  it('wraps payouts, appeals and the balance as Variant A does', async () => {
    const sandbox = newSandbox();
    const client = clientB(sandbox);
    const payment = (await client.POST('/merchant/v1/payments', { body: paymentBody({ amount: '100.00' }) })).data!
      .data;
    await sandbox.advance({ publicKey: 'pk_test' }, 60);
    const payout = await client.POST('/merchant/v1/payouts', {
      body: { amount: '10.00', currency: 'EUR', requisite: { type: 'card', card_number: '4111111111111111' } },
    });
    const appeal = await client.POST('/merchant/v1/appeals', {
      body: { transaction_id: payment.id, amount: '1.00', currency: 'EUR' },
    });
    const balance = await client.GET('/merchant/v1/balance');
    expect([payout.data?.data.status, appeal.data?.data.status]).toEqual(['created', 'pending']);
    expect(balance.data?.data).toEqual({ balances: [{ currency: 'EUR', available: '90.00', pending: '0.00' }] });
    const payouts = await client.GET('/merchant/v1/payouts', { params: { query: { status: 'created' } } });
    expect(payouts.data?.pagination.total).toBe(1);
  });
});

describe('problems', () => {
  it('answer application/problem+json with type, title, status, detail, instance, code and request_id', async () => {
    const sandbox = newSandbox();
    const response = await call(sandbox, 'GET', '/payments/pay_missing', { authorization: 'Bearer t' });
    const body = await response.json();
    expect([response.status, response.headers.get('content-type')]).toEqual([404, 'application/problem+json']);
    expect(body).toEqual({
      type: 'https://docs.payments.example/problems/not_found',
      title: 'Not found',
      status: 404,
      detail: 'No payment with id pay_missing exists for this merchant.',
      instance: '/payments/pay_missing',
      code: 'not_found',
      request_id: expect.stringMatching(/^req_[A-Za-z0-9_-]+$/),
    });
  });

  it('names the violations of a list query in errors[]', async () => {
    const response = await call(newSandbox(), 'GET', '/merchant/v1/payouts?limit=500', {
      'x-public-key': 'p',
      'x-secret-key': 's',
    });
    const body = await response.json();
    expect([response.status, body.code, body.errors]).toEqual([
      422,
      'validation_failed',
      [{ pointer: '/limit', detail: 'Query parameter "limit" must be at most 100.' }],
    ]);
  });

  it('answers 400 to malformed JSON and to a body over the cap, before anything runs', async () => {
    const sandbox = newSandbox({ maxBodyBytes: 1024 });
    const a = { authorization: 'Bearer t', 'idempotency-key': 'k' };
    const malformed = await call(sandbox, 'POST', '/payments', a, '{"amount":');
    const large = await call(sandbox, 'POST', '/payments', a, paymentBody({ metadata: { note: 'x'.repeat(2000) } }));
    expect([malformed.status, (await malformed.json()).code]).toEqual([400, 'bad_request']);
    expect([large.status, (await large.json()).detail]).toEqual([400, 'The request body is larger than 1024 bytes.']);
    expect((await clientA(sandbox, 't').GET('/payments')).data?.pagination.total).toBe(0);
  });

  it('turns a response the contract check rejects into a 500 problem that names the violation', async () => {
    const sandbox = newSandbox({
      validate: {
        response: ({ status }) =>
          status === 200 ? [{ pointer: '/data/status', detail: 'not allowed here' }] : undefined,
      },
    });
    const response = await call(sandbox, 'GET', '/balance', { authorization: 'Bearer t' });
    const body = await response.json();
    expect([response.status, body.code, body.errors]).toEqual([
      500,
      'internal_error',
      [{ pointer: '/data/status', detail: 'not allowed here' }],
    ]);
  });
});

describe('the contract check these tests run with', () => {
  it('rejects a payment without updated_at and one with a numeric amount', async () => {
    const { contractChecks } = await import('./fixtures.js');
    const payment = (await clientB(newSandbox()).POST('/merchant/v1/payments', { body: paymentBody() })).data!.data;
    const operation = {
      variant: 'B',
      operationId: 'retrievePayment',
      method: 'GET',
      path: '/merchant/v1/payments/{paymentId}',
    } as const;
    const check = (data: object) =>
      contractChecks.response!({ operation, status: 200, headers: new Headers(), body: { data } });
    expect(check(payment)).toBeUndefined();
    const { updated_at: _u, ...withoutUpdatedAt } = payment;
    expect(await check(withoutUpdatedAt)).toEqual([expect.objectContaining({ pointer: '/data' })]);
    expect(await check({ ...payment, requested: { amount: 42.5, currency: 'EUR' } })).toEqual([
      expect.objectContaining({ pointer: '/data/requested/amount' }),
    ]);
  });
});
