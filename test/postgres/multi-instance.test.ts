// Two `merchant-payments sandbox --store postgres --clock manual` processes on one database, with requests alternating
// between them, one of them killed with SIGKILL mid-traffic and started again (issue 23's multi-instance test). Then:
// every payment that got a 2xx is there with its last acknowledged status, through either instance; a clock advanced
// through one moves what the other reads; the receiver saw every event, and no attempt twice beyond those the killed
// instance may have had in flight; a fault set through one instance fails requests through the other. Every process is stopped by its pid; ports are free ones.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild, type PipedChild } from '../../packages/contract/src/shared/children.js';
import { MAX_PARALLEL_ATTEMPTS } from '../../packages/sandbox/src/delivery/runner.js';
import { freshDatabase } from './database.js';
import { startSandbox, type SandboxProcess } from './sandbox-process.js';

const TENANTS = ['mi-1', 'mi-2', 'mi-3', 'mi-4'];
const CREATES = 200;
/** The operation after which the second instance is killed, and how many later ones find it gone before it is back. */
const KILL_AT = 90;
const SECRET = `whsec_${Buffer.from('multi-instance-test-secret-32-by').toString('base64')}`;

const started: PipedChild[] = [];
let receiver: Server;
/** How many times each X-Event-ID reached the receiver. */
const received = new Map<string, number>();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const id = request.headers['x-event-id'];
    request.resume();
    request.on('end', () => {
      if (typeof id === 'string') received.set(id, (received.get(id) ?? 0) + 1);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await Promise.all(started.map((child) => stopChild(child)));
  await new Promise((resolve) => receiver.close(resolve));
});

const auth = (tenant: string) => ({ authorization: `Bearer ${tenant}`, 'content-type': 'application/json' });

/** A request's status and body, or undefined when the instance could not be reached (killed). */
async function call(
  base: string,
  tenant: string,
  method: string,
  path: string,
  body?: unknown,
  key?: string,
): Promise<{ status: number; body: any } | undefined> {
  try {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...auth(tenant), ...(key ? { 'idempotency-key': key } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  } catch {
    return undefined;
  }
}

/** Every entry of a control log, paging through it. */
async function controlLog(base: string, tenant: string, log: 'events' | 'deliveries'): Promise<any[]> {
  const entries: any[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await call(base, tenant, 'GET', `/_sandbox/${log}?limit=100&offset=${offset}`);
    expect(page?.status).toBe(200);
    entries.push(...page!.body.data);
    if (entries.length >= page!.body.pagination.total) return entries;
  }
}

describe('two sandbox instances on one database', () => {
  it('lose nothing acknowledged when one is killed mid-traffic, share clocks and faults, and deliver every event', async () => {
    const env = { DATABASE_URL: await freshDatabase(), WEBHOOK_SECRET: SECRET };
    const args = [
      '--store',
      'postgres',
      '--clock',
      'manual',
      '--webhook-url',
      `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
    ];
    const instances: (SandboxProcess | undefined)[] = await Promise.all([
      startSandbox(args, env, started),
      startSandbox(args, env, started),
    ]);

    /** The last status each payment was acknowledged in, by id, with its tenant. */
    const acknowledged = new Map<string, { tenant: string; status: string }>();
    const figures = { requests: 0, ok: 0, unreached: 0, kills: 0, restarts: 0 };
    let restarting: Promise<void> | undefined;
    const send = async (index: number, tenant: string, method: string, path: string, body: unknown, key: string) => {
      const instance = instances[index % 2];
      figures.requests += 1;
      const answer = instance ? await call(instance.url, tenant, method, path, body, key) : undefined;
      if (answer === undefined) figures.unreached += 1;
      else if (answer.status >= 200 && answer.status < 300) figures.ok += 1;
      return answer;
    };

    // Note: four requests in flight at once, so that the kill lands while some are being answered.
    let next = 0;
    const worker = async () => {
      for (let index = next++; index < CREATES; index = next++) {
        const tenant = TENANTS[index % TENANTS.length]!;
        if (index === KILL_AT) {
          const killed = instances[1]!;
          instances[1] = undefined;
          killed.child.kill('SIGKILL');
          figures.kills += 1;
          restarting = startSandbox(args, env, started).then((again) => {
            instances[1] = again;
            figures.restarts += 1;
          });
        }
        const created = await send(
          index,
          tenant,
          'POST',
          '/payments',
          { amount: `${10 + index}.00`, currency: 'EUR', requisite: { type: 'card' } },
          `create-${index}`,
        );
        if (created?.status !== 200) continue;
        const { id, status } = created.body.data as { id: string; status: string };
        acknowledged.set(id, { tenant, status });
        if (index % 5 !== 0) continue;
        // Note: the cancel goes through the other instance than the create did.
        const canceled = await send(index + 1, tenant, 'POST', `/payments/${id}/cancel`, undefined, `cancel-${index}`);
        if (canceled?.status === 200) acknowledged.set(id, { tenant, status: canceled.body.data.status });
        // Note: a cancel whose answer was lost may have committed, so its payment's status is not held to either value.
        else acknowledged.delete(id);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    await restarting;
    expect(figures.kills).toBe(1);
    expect(figures.restarts).toBe(1);
    const [a, b] = instances as [SandboxProcess, SandboxProcess];

    let checked = 0;
    for (const [id, { tenant, status }] of acknowledged) {
      for (const base of [a.url, b.url]) {
        const read = await call(base, tenant, 'GET', `/payments/${id}`);
        expect([read?.status, read?.body.data.status], `${id} through ${base}`).toEqual([200, status]);
        checked += 1;
      }
    }
    expect(acknowledged.size).toBeGreaterThan(CREATES / 2);

    // A clock advanced through the first instance moves what the second reads.
    for (const tenant of TENANTS)
      expect((await call(a.url, tenant, 'POST', '/_sandbox/clock/advance', { seconds: 3600 }))?.status).toBe(200);
    let moved = 0;
    for (const [id, { tenant, status }] of acknowledged) {
      if (status !== 'created') continue;
      const read = await call(b.url, tenant, 'GET', `/payments/${id}`);
      expect(read?.body.data.status, id).not.toBe('created');
      moved += 1;
    }
    expect(moved).toBeGreaterThan(0);

    // Every event reaches the receiver. An attempt the killed instance took and never recorded is taken again once
    // its lease runs out (the delivery time-out plus a minute), so this waits and flushes through both instances.
    const events = new Map<string, string[]>();
    const missing = async () => {
      const left: string[] = [];
      for (const tenant of TENANTS) {
        const log = await controlLog(a.url, tenant, 'events');
        events.set(
          tenant,
          log.map((change) => change.event.id as string),
        );
        left.push(...events.get(tenant)!.filter((id) => !received.has(id)));
      }
      return left;
    };
    const deadline = Date.now() + 150_000;
    for (let round = 0; (await missing()).length > 0; round += 1) {
      if (Date.now() > deadline) expect.fail(`events never received: ${(await missing()).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      // Note: an advance of 0 s delivers what is due on the tenant, through each instance in turn.
      for (const tenant of TENANTS)
        await call((round % 2 ? a : b).url, tenant, 'POST', '/_sandbox/clock/advance', { seconds: 0 });
    }

    // Each delivery's attempts are numbered once each, and the receiver saw each attempt once, but for those the
    // killed instance may have sent without recording.
    let attempts = 0;
    let resent = 0;
    const eventCount = [...events.values()].reduce((sum, ids) => sum + ids.length, 0);
    for (const tenant of TENANTS) {
      for (const delivery of await controlLog(b.url, tenant, 'deliveries')) {
        const numbers = (delivery.attempts as { number: number; outcome: string }[]).map((attempt) => attempt.number);
        expect(numbers, delivery.id).toEqual(numbers.map((_, index) => index + 1));
        const made = (delivery.attempts as { outcome: string }[]).filter(
          (attempt) => attempt.outcome !== 'pending',
        ).length;
        attempts += made;
        const seen = received.get(delivery.event_id) ?? 0;
        expect(seen, delivery.event_id).toBeGreaterThanOrEqual(made);
        resent += seen - made;
      }
    }
    expect(resent).toBeLessThanOrEqual(MAX_PARALLEL_ATTEMPTS * TENANTS.length);
    // A fault set through one instance fails the next request through the other, once, then is gone from both.
    const faulted = TENANTS[0]!;
    const fault = await call(a.url, faulted, 'POST', '/_sandbox/faults', {
      operation_id: 'listPayments',
      kind: 'server_error',
      count: 2,
    });
    expect(fault?.status).toBe(201);
    const listed = async (base: string) => (await call(base, faulted, 'GET', '/payments?limit=1'))?.status;
    expect([await listed(b.url), await listed(a.url), await listed(b.url)]).toEqual([500, 500, 200]);
    expect((await call(b.url, faulted, 'GET', '/_sandbox/faults'))?.body.data).toEqual([]);

    console.log(
      `multi-instance: ${figures.requests} requests, ${figures.ok} answered 2xx, ${figures.unreached} unreached, ${figures.kills} kill and restart; ` +
        `${acknowledged.size} payments checked through both instances (${checked} reads), ${moved} moved by the other instance's advance; ` +
        `${eventCount} events, ${attempts} recorded attempts, ${[...received.values()].reduce((x, y) => x + y, 0)} received (${resent} sent again after the kill)`,
    );
  });
});
