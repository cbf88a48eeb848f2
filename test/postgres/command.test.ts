// `merchant-payments sandbox --store postgres` from its source, on a database of this file's own named by DATABASE_URL:
// what it acknowledged is there after a restart. Every process is stopped by its pid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopChild, type PipedChild } from '../../packages/contract/src/shared/children.js';
import { freshDatabase } from './database.js';
import { startSandbox } from './sandbox-process.js';

const started: PipedChild[] = [];
let databaseUrl: string;
const headers = { authorization: 'Bearer restart-token', 'content-type': 'application/json' };

beforeAll(async () => {
  databaseUrl = await freshDatabase();
});
afterAll(async () => {
  await Promise.all(started.map((child) => stopChild(child)));
});

describe('merchant-payments sandbox --store postgres', () => {
  it('keeps a payment across a restart, on the database DATABASE_URL names', async () => {
    const env = { DATABASE_URL: databaseUrl };
    const first = await startSandbox(['--store', 'postgres', '--clock', 'manual'], env, started);
    const created = await fetch(`${first.url}/payments`, {
      method: 'POST',
      headers: { ...headers, 'idempotency-key': 'restart-1' },
      body: JSON.stringify({ amount: '12.34', currency: 'EUR', requisite: { type: 'card' } }),
    });
    expect(created.status).toBe(200);
    const { data } = (await created.json()) as { data: { id: string; status: string } };
    expect(data.status).toBe('created');
    await stopChild(first.child);

    const second = await startSandbox(['--store', 'postgres', '--clock', 'manual'], env, started);
    const read = await fetch(`${second.url}/payments/${data.id}`, { headers });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { data: unknown }).data).toEqual(data);
    await stopChild(second.child);
  });
});
