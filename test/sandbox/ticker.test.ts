// The real-clock ticker: it runs the tenants that have something due, and leaves idle ones alone, however many.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClockRunner } from '../../packages/sandbox/src/clock/runner.js';
import { clockNow, createHead, execute } from '../../packages/sandbox/src/core/index.js';
import { createMemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import { paymentBody } from './core/fixtures.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('the real-clock ticker', () => {
  it("ticks only the tenants with something due: a payment's next step, not 1,000 idle tenants", async () => {
    vi.useFakeTimers();
    let wall = Date.UTC(2026, 0, 1);
    const store = createMemoryStore({
      newTenant: (id) =>
        createHead(id, { clock: 'real', start: wall, seed: 'ticker', retryCompression: 60, eventLogLimit: 10_000 }),
    });
    const run = <T>(id: string, work: Parameters<typeof execute>[1]) =>
      store.transaction(id, (tenant) => execute(tenant, work, clockNow(tenant.clock, wall)).answer as T);
    for (let i = 0; i < 1000; i++) await store.transaction(`idle-${i}`, () => {});
    const created = await run<{ ok: boolean }>('busy', {
      type: 'createPayment',
      body: paymentBody(),
      idempotency_key: 'k1',
    });
    expect(created.ok).toBe(true);
    const visited: string[] = [];
    const runner = createClockRunner({
      store,
      deliveries: { flush: async (tenant) => (visited.push(tenant), 0), idle: async () => {} },
      wallNow: () => wall,
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
    const answer = await run<{ ok: true; body: { data: { status: string }[] } }>('busy', { type: 'listPayments' });
    expect(answer.body.data[0]!.status).not.toBe('created');
  });
});
