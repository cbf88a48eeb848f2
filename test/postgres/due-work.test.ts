// Due work on the postgres store shared by several instances: a tenant another transaction holds is skipped rather
// than queued for (tryTransaction, SKIP LOCKED), and an attempt whose sender died is sent again by another instance.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHead, type TenantHead } from '../../packages/sandbox/src/core/index.js';
import { LEASE_MARGIN_MS } from '../../packages/sandbox/src/delivery/runner.js';
import { openSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { createPostgresStore } from '../../packages/sandbox/src/stores/postgres/index.js';
import type { TenantStore } from '../../packages/sandbox/src/stores/types.js';
import { clientA, HOOK_URL, paymentBody, receiver, SECRET } from '../sandbox/fixtures.js';
import { freshDatabase } from './database.js';
import { allDeliveries } from '../sandbox/state-reads.js';

const START = Date.UTC(2026, 0, 1);
const newTenant = (id: string): TenantHead =>
  createHead(id, { clock: 'manual', start: START, seed: 'due', retryCompression: 60, eventLogLimit: 1000 });
const closing: { close(): Promise<void> }[] = [];
let url: string;

beforeAll(async () => {
  url = await freshDatabase();
});
afterAll(async () => {
  for (const item of closing.reverse()) await item.close();
});

async function store(): Promise<TenantStore> {
  const made = await createPostgresStore({ connectionString: url, newTenant });
  closing.push(made);
  return made;
}

describe('tryTransaction on the postgres store', () => {
  it('skips a tenant whose row another transaction holds, without waiting, and runs once it is free', async () => {
    const [first, second] = [await store(), await store()];
    await first.transaction('held', (tenant) => void (tenant.seq = 1));
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    closing.push({ close: () => holder.end() });
    await holder.query('BEGIN');
    await holder.query('SELECT id FROM sandbox_tenants WHERE id = $1 FOR UPDATE', ['held']);
    expect(await second.tryTransaction('held', (tenant) => (tenant.seq += 1))).toBeUndefined();
    await holder.query('COMMIT');
    expect(await second.tryTransaction('held', (tenant) => (tenant.seq += 1))).toEqual({ result: 2 });
    // Note: the skipped attempt left the other instance's cached state valid; it reads the committed one.
    expect(await first.transaction('held', (tenant) => tenant.seq)).toBe(2);
  });

  it('makes no tenant that does not exist', async () => {
    const one = await store();
    expect(await one.tryTransaction('never-made', () => 'ran')).toBeUndefined();
    expect(await one.transaction('never-made', (tenant) => tenant.seq)).toBe(0);
  });
});

describe('an attempt whose sender died', () => {
  it('is sent again, with the same X-Event-ID, by another instance once its lease ran out; the late outcome changes nothing', async () => {
    // Note: the receiver checks X-Timestamp against its own clock, so the sandboxes' wall clock starts at the real one.
    let wall = Date.now();
    let release!: () => void;
    const hooks = receiver();
    const options = {
      store: 'postgres' as const,
      databaseUrl: url,
      webhookUrls: [HOOK_URL],
      webhookSecret: SECRET,
      now: () => wall,
      deliveryTimeoutMs: 60_000,
    };
    // The first instance's send never comes back, as if its process had died mid-send.
    const first: Sandbox = await openSandbox({
      ...options,
      fetch: () => new Promise<Response>((resolve) => (release = () => resolve(new Response(null, { status: 204 })))),
    });
    const second: Sandbox = await openSandbox({ ...options, fetch: hooks.fetch });
    closing.push(second, first);
    const payment = (await clientA(first).POST('/payments', { body: paymentBody() })).data!.data;
    await clientA(first).POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
    const tenant = first.tenantId({ accessToken: 'token-a' });
    // Note: the cancel's answer does not wait for its webhook; the first instance takes the attempt just after.
    const leased = () => second.store.transaction(tenant, (state) => state.sending.length);
    for (
      const deadline = Date.now() + 30_000;
      (await leased()) === 0;
      await new Promise((resolve) => setTimeout(resolve, 20))
    ) {
      if (Date.now() > deadline) expect.fail('the first instance never took the attempt');
    }

    await second.runtime.deliver(tenant);
    expect(hooks.requests).toHaveLength(0);
    wall += 60_000 + LEASE_MARGIN_MS;
    await second.runtime.deliver(tenant);
    expect(hooks.requests).toHaveLength(1);
    const [delivery] = await second.store.transaction(tenant, allDeliveries);
    expect([delivery!.state, delivery!.attempts.length]).toEqual(['delivered', 1]);
    expect(hooks.requests[0]!.headers.get('x-event-id')).toBe(delivery!.event_id);

    release();
    await first.settled();
    const [after] = await first.store.transaction(tenant, allDeliveries);
    expect([after!.state, after!.attempts.length]).toEqual(['delivered', 1]);
  });
});
