import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { stopChild, type PipedChild } from '../../packages/contract/src/shared/children.js';
import { createPostgresDedupe, type WebhookDedupe } from '../../packages/contract/src/webhooks/index.js';
import { alive } from '../mock/processes.js';
import { at, delivery, SECRET, T0 } from '../webhooks/fixtures.js';
import { post, serveAdapter, type Receiver } from '../webhooks/server.js';
import { freshDatabase } from './database.js';
import { startScript } from './spawn.js';

let url: string;
let pool: pg.Pool;
const pools: pg.Pool[] = [];
const receivers: Receiver[] = [];
const children: PipedChild[] = [];

/** A pool on `connectionString`, ended after the file. */
function poolOn(connectionString: string): pg.Pool {
  const created = new pg.Pool({ connectionString });
  pools.push(created);
  return created;
}

const tableExists = async (name: string) =>
  (await pool.query('SELECT to_regclass($1) AS id', [name])).rows[0].id !== null;

beforeAll(async () => {
  url = await freshDatabase();
  pool = poolOn(url);
});

afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await Promise.all(children.map((child) => stopChild(child)));
  await Promise.all(pools.map((each) => each.end()));
});

describe('createPostgresDedupe', () => {
  it('grants a claim once, refuses it to every later claim of the same id, in any instance, until it is released', async () => {
    const first = createPostgresDedupe(pool, { table: 'claims_once' });
    const second = createPostgresDedupe(pool, { table: 'claims_once' });
    expect(await first.claim('evt_1')).toBe(true);
    expect(await first.claim('evt_1')).toBe(false);
    expect(await second.claim('evt_1')).toBe(false);
    expect(await second.claim('evt_2')).toBe(true);
    await first.release('evt_1');
    expect(await second.claim('evt_1')).toBe(true);
    expect(await first.claim('evt_1')).toBe(false);
  });

  it('creates its table, with a claimed_at time, on first use in an empty database', async () => {
    const empty = poolOn(await freshDatabase());
    const { rows: before } = await empty.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'");
    expect(before).toEqual([]);
    expect(await createPostgresDedupe(empty).claim('evt_first')).toBe(true);
    const { rows } = await empty.query<{ event_id: string; age: number }>(
      'SELECT event_id, extract(epoch FROM now() - claimed_at) AS age FROM webhook_event_claims',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.event_id).toBe('evt_first');
    expect(Number(rows[0]!.age)).toBeGreaterThanOrEqual(0);
  });

  it('creates the table once when twenty instances on separate connections make their first claim at the same time', async () => {
    const racers = Array.from({ length: 20 }, () => createPostgresDedupe(poolOn(url), { table: 'claims_race' }));
    const claims = await Promise.all(racers.map(async (dedupe, index) => dedupe.claim(`evt_${index % 2}`)));
    expect(claims.filter(Boolean)).toHaveLength(2);
    expect(await tableExists('claims_race')).toBe(true);
  });

  it('deletes claims older than ttlSeconds, so their ids can be claimed again', async () => {
    const dedupe = createPostgresDedupe(pool, { table: 'claims_ttl', ttlSeconds: 3600 });
    expect(await dedupe.claim('evt_old')).toBe(true);
    expect(await dedupe.claim('evt_recent')).toBe(true);
    await pool.query("UPDATE claims_ttl SET claimed_at = now() - interval '2 hours' WHERE event_id = 'evt_old'");
    // Note: a new instance prunes at its first claim; an existing one at most once a minute.
    expect(await createPostgresDedupe(pool, { table: 'claims_ttl', ttlSeconds: 3600 }).claim('evt_new')).toBe(true);
    const { rows } = await pool.query<{ event_id: string }>('SELECT event_id FROM claims_ttl ORDER BY event_id');
    expect(rows.map((row) => row.event_id)).toEqual(['evt_new', 'evt_recent']);
    expect(await dedupe.claim('evt_old')).toBe(true);
  });

  it('takes a schema-qualified table and a reserved word as its name', async () => {
    await pool.query('CREATE SCHEMA receiver');
    const dedupe = createPostgresDedupe(pool, { table: 'receiver.order' });
    expect(await dedupe.claim('evt_1')).toBe(true);
    expect(await dedupe.claim('evt_1')).toBe(false);
    expect(await tableExists('receiver."order"')).toBe(true);
  });

  it('works for a role that may not create tables when the table already exists', async () => {
    await pool.query(
      'CREATE TABLE claims_migrated (event_id text PRIMARY KEY, claimed_at timestamptz NOT NULL DEFAULT now())',
    );
    await pool.query('CREATE ROLE receiver_app LOGIN');
    await pool.query('GRANT SELECT, INSERT, DELETE ON claims_migrated TO receiver_app');
    const app = new URL(url);
    app.username = 'receiver_app';
    const restricted = poolOn(app.href);
    await expect(restricted.query('CREATE TABLE not_allowed (id int)')).rejects.toThrow(/permission denied/);
    const dedupe = createPostgresDedupe(restricted, { table: 'claims_migrated' });
    expect(await dedupe.claim('evt_1')).toBe(true);
    expect(await dedupe.claim('evt_1')).toBe(false);
  });

  it('rejects a table name that is not a plain identifier with a TypeError naming the option', () => {
    for (const table of [
      'claims; DROP TABLE users',
      'Claims',
      'a.b.c',
      '',
      '.claims',
      '"claims"',
      'x'.repeat(64),
      42,
    ]) {
      expect(() => createPostgresDedupe(pool, { table: table as string })).toThrow(
        new TypeError(
          `table must be a lowercase SQL identifier ([a-z_][a-z0-9_]*, at most 63 characters), optionally "schema.table"; got ${JSON.stringify(table)}.`,
        ),
      );
    }
  });

  it('rejects a missing pool and a ttlSeconds that is not a positive integer', () => {
    expect(() => createPostgresDedupe(undefined as unknown as pg.Pool)).toThrow(/needs a pg Pool or Client/);
    for (const ttlSeconds of [0, -1, 1.5, Number.NaN]) {
      expect(() => createPostgresDedupe(pool, { ttlSeconds })).toThrow(
        new TypeError('ttlSeconds must be a positive integer.'),
      );
    }
  });
});

describe('a receiver with createPostgresDedupe', () => {
  async function receiver(dedupe: WebhookDedupe, onEvent: () => unknown): Promise<Receiver> {
    const started = await serveAdapter.node({ secrets: SECRET, now: at(T0), dedupe, onEvent });
    receivers.push(started);
    return started;
  }

  it('answers a duplicate delivery as a duplicate and runs onEvent once', async () => {
    const onEvent = vi.fn();
    const { url: receiverUrl } = await receiver(createPostgresDedupe(pool, { table: 'claims_receiver' }), onEvent);
    const { body, headers } = delivery();
    expect(await post(receiverUrl, [body], headers)).toEqual({ status: 200, body: '{}' });
    expect(await post(receiverUrl, [body], headers)).toEqual({ status: 200, body: '{"duplicate":true}' });
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it('releases the claim when onEvent throws, so the redelivery runs onEvent again', async () => {
    const onEvent = vi.fn().mockRejectedValueOnce(new Error('ledger unavailable')).mockResolvedValue(undefined);
    const { url: receiverUrl } = await receiver(createPostgresDedupe(pool, { table: 'claims_release' }), onEvent);
    const { body, headers } = delivery();
    expect((await post(receiverUrl, [body], headers)).status).toBe(500);
    const { rows } = await pool.query('SELECT event_id FROM claims_release');
    expect(rows).toEqual([]);
    expect(await post(receiverUrl, [body], headers)).toEqual({ status: 200, body: '{}' });
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it('runs onEvent once for 50 concurrent duplicates split across two processes, and answers all 50 with 2xx', async () => {
    const shared = await freshDatabase();
    await poolOn(shared).query('CREATE TABLE events_handled (event_id text NOT NULL, pid integer NOT NULL)');
    const script = fileURLToPath(new URL('./receiver.ts', import.meta.url));
    const lines = await Promise.all([0, 1].map(() => startScript(script, { DATABASE_URL: shared }, children)));
    const urls = lines.map((line) => `http://127.0.0.1:${/^listening (\d+)$/.exec(line)![1]}/webhooks`);
    const { body, headers } = delivery();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) => post(urls[index % 2]!, [body], headers, { timeoutMs: 60_000 })),
    );
    expect(answers.filter((answer) => answer.status >= 200 && answer.status < 300)).toHaveLength(50);
    expect(answers.filter((answer) => answer.body === '{}')).toHaveLength(1);
    const { rows } = await poolOn(shared).query('SELECT event_id FROM events_handled');
    expect(rows).toEqual([{ event_id: headers['X-Event-ID'] }]);
    const pids = children.map((child) => child.pid!);
    await Promise.all(children.map((child) => stopChild(child)));
    expect(pids.filter(alive)).toEqual([]);
  });
});
