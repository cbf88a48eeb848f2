// The real-clock ticker: it runs the tenants that have something due, and leaves idle ones alone, however many.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClockRunner } from '../../src/sandbox/clock-runner.js';
import { createStore } from '../../src/sandbox/core/index.js';
import { paymentBody } from './core/fixtures.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the real-clock ticker', () => {
  it('ticks only the tenants with something due: a payment\'s next step, not 1,000 idle tenants', async () => {
    vi.useFakeTimers();
    let wall = Date.UTC(2026, 0, 1);
    const store = createStore({ clock: 'real', seed: 'ticker', wallNow: () => wall });
    for (let i = 0; i < 1000; i++) store.tenant(`idle-${i}`);
    const created = store.execute('busy', { type: 'createPayment', body: paymentBody(), idempotency_key: 'k1' });
    expect(created.answer.ok).toBe(true);
    const visited: string[] = [];
    const runner = createClockRunner({
      open: (id) => store.tenant(id),
      realTenants: () => store.tenantIds(),
      deliveries: { flush: async (tenant) => (visited.push(tenant.id), 0), idle: async () => {} },
      wallNow: () => wall,
      changed: async () => {},
      onError: (error) => {
        throw error;
      },
    });
    runner.startTicker(250);
    await vi.advanceTimersByTimeAsync(1000);
    expect(visited).toEqual([]);

    // An hour later the payment has steps due (its processing, or its expiry): only its tenant is run.
    wall += 3_600_000;
    await vi.advanceTimersByTimeAsync(250);
    runner.stopTicker();
    expect(visited).toEqual(['busy']);
    const { answer } = store.execute('busy', { type: 'listPayments' });
    if (!answer.ok) throw new Error(answer.problem.detail);
    expect(answer.body.data[0]!.status).not.toBe('created');
  });
});
