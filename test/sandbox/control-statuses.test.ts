// Forcing statuses through the control API: every legal row of the lifecycle tables is taken as its trigger would
// take it (fields, balance, event log, delivery), anything else is 422 invalid_state, and a payout's hold is kept.
import { describe, expect, it } from 'vitest';
import type { SandboxControlClient } from '../../packages/sandbox/src/index.js';
import { controlA, controlB, controlSandbox } from './control-fixtures.js';
import { call, clientA, clientB, HOOK_URL, paymentBody, receiver } from './fixtures.js';

const A = { authorization: 'Bearer token-a' };

const forcePayment = (
  control: SandboxControlClient,
  paymentId: string,
  body: {
    status: 'created' | 'pending' | 'succeeded' | 'failed' | 'expired' | 'canceled' | 'refunded';
    reason_code?: 'declined' | 'provider_error' | 'canceled_by_merchant' | null;
  },
  key?: string,
) =>
  control.POST('/_sandbox/payments/{paymentId}/status', {
    params: { path: { paymentId } },
    body,
    ...(key ? { headers: { 'Idempotency-Key': key } } : {}),
  });

describe('forcePaymentStatus', () => {
  it('moves a payment along its table, as the trigger of each row would, and logs and delivers each change', async () => {
    const hooks = receiver();
    const sandbox = controlSandbox({ webhookUrls: [HOOK_URL], fetch: hooks.fetch });
    const control = controlA(sandbox);
    const payment = (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data;

    const pending = await forcePayment(control, payment.id, { status: 'pending' });
    expect([
      pending.response.status,
      pending.data?.data.from,
      pending.data?.data.to,
      pending.data?.data.trigger,
    ]).toEqual([200, 'created', 'pending', 'control']);
    const succeeded = (await forcePayment(control, payment.id, { status: 'succeeded' })).data!.data;
    // The event is the later layout's body: the payment in the confirmed shape, processed set by reaching succeeded.
    expect(succeeded.event).toMatchObject({
      type: 'payment.status_changed',
      data: { id: payment.id, status: 'succeeded', processed: { amount: '42.50' }, requisite: { type: 'card' } },
    });
    expect('finalized_at' in succeeded.event.data).toBe(true);

    const retrieved = (await clientA(sandbox).GET('/payments/{id}', { params: { path: { id: payment.id } } })).data!
      .data;
    expect([retrieved.status, retrieved.processed?.amount]).toEqual(['succeeded', '42.50']);
    expect((await clientA(sandbox).GET('/balance')).data!.data.balances).toEqual([
      expect.objectContaining({ currency: 'EUR', available: '42.50' }),
    ]);
    const log = (await control.GET('/_sandbox/events', { params: { query: { object_id: payment.id } } })).data!.data;
    expect(log.map((c) => [c.from, c.to, c.trigger])).toEqual([
      ['pending', 'succeeded', 'control'],
      ['created', 'pending', 'control'],
    ]);
    await sandbox.settled();
    expect(hooks.later.map((e) => e.data.status)).toEqual(['pending', 'succeeded']);
    // Forced, the payment's own processing ends: advancing changes nothing more.
    expect((await control.POST('/_sandbox/clock/advance', { body: { seconds: 3600 } })).data?.data.transitions).toBe(0);
  });

  it('takes the row the reason_code names, or the table’s first row to the status without one', async () => {
    const sandbox = controlSandbox();
    const control = controlA(sandbox);
    const [first, second] = [
      (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data,
      (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data,
    ];
    for (const p of [first, second]) await forcePayment(control, p.id, { status: 'pending' });
    const chosen = (await forcePayment(control, first.id, { status: 'failed', reason_code: 'provider_error' })).data!
      .data;
    const defaulted = (await forcePayment(control, second.id, { status: 'failed' })).data!.data;
    const reasonOf = (change: typeof chosen) =>
      'reason_code' in change.event.data ? change.event.data.reason_code : undefined;
    expect([chosen.event.data.status, reasonOf(chosen)]).toEqual(['failed', 'provider_error']);
    expect(reasonOf(defaulted)).toBe('declined');
  });

  it('refuses a transition the table does not list with 422 invalid_state, naming where the payment can go', async () => {
    const sandbox = controlSandbox();
    const control = controlA(sandbox);
    const payment = (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data;
    const skip = await forcePayment(control, payment.id, { status: 'succeeded' });
    expect([skip.response.status, skip.error]).toMatchObject([
      422,
      {
        code: 'invalid_state',
        detail: 'A payment cannot move from created to succeeded; it can move to: pending, expired, canceled.',
      },
    ]);
    await forcePayment(control, payment.id, { status: 'pending' });
    const wrongReason = await forcePayment(control, payment.id, {
      status: 'failed',
      reason_code: 'canceled_by_merchant',
    });
    expect(wrongReason.error).toMatchObject({
      code: 'invalid_state',
      detail: expect.stringContaining(
        'only with reason_code declined, amount_mismatch, provider_error, requisites_unavailable',
      ),
    });
    await forcePayment(control, payment.id, { status: 'succeeded' });
    await forcePayment(control, payment.id, { status: 'refunded' });
    const final = await forcePayment(control, payment.id, { status: 'succeeded' });
    expect(final.error).toMatchObject({
      code: 'invalid_state',
      detail: 'A payment cannot move from refunded to succeeded; it can move to: nothing (final).',
    });
    // Nothing changed on the refused calls.
    expect(
      (await control.GET('/_sandbox/events', { params: { query: { object_id: payment.id } } })).data!.pagination.total,
    ).toBe(3);
  });

  it('refuses a refund the available balance cannot cover with 422 insufficient_balance, since a payout holds it', async () => {
    const sandbox = controlSandbox();
    const control = controlA(sandbox);
    const payment = (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data;
    await forcePayment(control, payment.id, { status: 'pending' });
    await forcePayment(control, payment.id, { status: 'succeeded' });
    const payout = await clientA(sandbox).POST('/payouts', {
      body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card', card_number: '4111111111111111' } },
    });
    expect(payout.response.status).toBe(200);
    const refund = await forcePayment(control, payment.id, { status: 'refunded' });
    expect([refund.response.status, refund.error?.code]).toEqual([422, 'insufficient_balance']);
  });

  it('answers 404 to another tenant’s payment, and 422 validation_failed to a status or id outside the document', async () => {
    const sandbox = controlSandbox();
    const theirs = (await clientB(sandbox).POST('/merchant/v1/payments', { body: paymentBody() })).data!.data;
    const missing = await forcePayment(controlA(sandbox), theirs.id, { status: 'pending' });
    expect([missing.response.status, missing.error?.code]).toEqual([404, 'not_found']);
    expect((await forcePayment(controlB(sandbox), theirs.id, { status: 'pending' })).response.status).toBe(200);

    const unknown = await call(sandbox, 'POST', `/_sandbox/payments/${theirs.id}/status`, A, { status: 'paid' });
    expect([unknown.status, (await unknown.json()).errors.map((e: { pointer: string }) => e.pointer)]).toEqual([
      422,
      ['/status'],
    ]);
    const badId = await call(sandbox, 'POST', '/_sandbox/payments/not%20an%20id/status', A, { status: 'pending' });
    expect([badId.status, (await badId.json()).errors[0].pointer]).toEqual([422, '/paymentId']);
    const reason = await call(sandbox, 'POST', `/_sandbox/payments/${theirs.id}/status`, A, {
      status: 'failed',
      reason_code: 'bored',
    });
    expect([reason.status, (await reason.json()).errors[0].pointer]).toEqual([422, '/reason_code']);
  });

  it('replays a forced transition to the same Idempotency-Key instead of refusing it the second time', async () => {
    const sandbox = controlSandbox();
    const control = controlA(sandbox);
    const payment = (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data;
    const first = await forcePayment(control, payment.id, { status: 'pending' }, 'force-1');
    const again = await forcePayment(control, payment.id, { status: 'pending' }, 'force-1');
    expect([again.response.status, again.response.headers.get('idempotent-replayed'), again.data]).toEqual([
      200,
      'true',
      first.data,
    ]);
    const fresh = await forcePayment(control, payment.id, { status: 'pending' }, 'force-2');
    expect(fresh.error?.code).toBe('invalid_state');
  });
});

describe('forcePayoutStatus', () => {
  it('moves a payout through pending and processing to succeeded, and refuses a skipped step or a reason_code', async () => {
    const sandbox = controlSandbox();
    const control = controlA(sandbox);
    const payment = (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data;
    await forcePayment(control, payment.id, { status: 'pending' });
    await forcePayment(control, payment.id, { status: 'succeeded' });
    const payout = (
      await clientA(sandbox).POST('/payouts', {
        body: { amount: '10.00', currency: 'EUR', requisite: { type: 'card', card_number: '4111111111111111' } },
      })
    ).data!.data;
    const force = (status: 'pending' | 'processing' | 'succeeded' | 'failed') =>
      control.POST('/_sandbox/payouts/{payoutId}/status', {
        params: { path: { payoutId: payout.id } },
        body: { status },
      });

    const skipped = await force('processing');
    expect([skipped.response.status, skipped.error?.code]).toEqual([422, 'invalid_state']);
    for (const status of ['pending', 'processing', 'succeeded'] as const)
      expect((await force(status)).data?.data.to).toBe(status);
    const retrieved = (await clientA(sandbox).GET('/payouts/{id}', { params: { path: { id: payout.id } } })).data!.data;
    expect([retrieved.status, retrieved.processed?.amount]).toEqual(['succeeded', '10.00']);
    expect((await clientA(sandbox).GET('/balance')).data!.data.balances[0]!.available).toBe('32.50');

    const reason = await call(sandbox, 'POST', `/_sandbox/payouts/${payout.id}/status`, A, {
      status: 'failed',
      reason_code: 'declined',
    });
    expect([reason.status, (await reason.json()).errors[0].pointer]).toEqual([422, '/reason_code']);
    const missing = await control.POST('/_sandbox/payouts/{payoutId}/status', {
      params: { path: { payoutId: 'po_missing' } },
      body: { status: 'pending' },
    });
    expect([missing.response.status, missing.error?.code]).toEqual([404, 'not_found']);
  });
});

describe('forceAppealStatus', () => {
  it('takes an appeal under review and accepts it, granting the amount, then refuses to move it on', async () => {
    const sandbox = controlSandbox();
    const control = controlA(sandbox);
    const payment = (await clientA(sandbox).POST('/payments', { body: paymentBody() })).data!.data;
    const appeal = (
      await clientA(sandbox).POST('/appeals', { body: { transaction_id: payment.id, amount: '5.00', currency: 'EUR' } })
    ).data!.data;
    const force = (status: 'under_review' | 'accepted' | 'rejected' | 'canceled') =>
      control.POST('/_sandbox/appeals/{appealId}/status', {
        params: { path: { appealId: appeal.id } },
        body: { status },
      });

    const review = (await force('under_review')).data!.data;
    expect([review.from, review.to, review.event.type]).toEqual(['pending', 'under_review', 'appeal.status_changed']);
    const accepted = (await force('accepted')).data!.data;
    expect(accepted.event.data).toMatchObject({ status: 'accepted', resolved: { amount: '5.00', currency: 'EUR' } });
    const after = await force('rejected');
    expect([after.response.status, after.error?.code]).toEqual([422, 'invalid_state']);
    const unknown = await call(sandbox, 'POST', `/_sandbox/appeals/${appeal.id}/status`, A, { status: 'closed' });
    expect([unknown.status, (await unknown.json()).errors[0].pointer]).toEqual([422, '/status']);
  });
});
