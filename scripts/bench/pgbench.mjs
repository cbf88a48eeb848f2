// The postgres section's physical limit: Debian's pgbench, beside initdb, committing a create-shaped transaction sent
// as one statement (data-modifying CTEs: bump the tenant's id count, insert the object with a record of the store's
// size, insert its idempotency record with the answer) on the section's own cluster, in a scratch database of its own.
// What the sandbox does per create over HTTP is held against what PostgreSQL alone commits on the same machine.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { database, withClient } from './postgres-seed.mjs';

/** The folder of initdb and pgbench as test/postgres/cluster.ts finds it (PG_BIN, else the highest major); undefined without PostgreSQL. */
export function pgBin() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  const majors = existsSync(base)
    ? readdirSync(base).filter((major) => existsSync(path.join(base, major, 'bin/initdb')))
    : [];
  const highest = majors.sort((a, b) => Number(b) - Number(a))[0];
  return highest === undefined ? undefined : path.join(base, highest, 'bin');
}

/** A payment record as the store keeps it (the fields and values of one made through the API), its id left as @ID@. */
const RECORD = JSON.stringify({
  id: '@ID@',
  type: 'card',
  requested: { amount: '42.50', currency: 'EUR' },
  initialized: { amount: '42.50', currency: 'EUR' },
  processed: { amount: '0.00', currency: 'EUR' },
  refunded: { amount: '0.00', currency: 'EUR' },
  requisite: {
    type: 'card',
    card_number: '4000 00** **** 6944',
    card_holder: 'SANDBOX RECIPIENT',
    bank: 'Example Bank',
  },
  status: 'created',
  reason_code: null,
  expires_at: '2026-01-01T00:30:00Z',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  metadata: { order_id: 'order-1042' },
});
const REQUEST = JSON.stringify({
  amount: '42.50',
  currency: 'EUR',
  expires_in: 1800,
  requisite: { type: 'card', bank: 'Example Bank' },
  metadata: { order_id: 'order-1042' },
});

// Note: the tables copy the columns and indexes of sandbox_objects and sandbox_idempotency as their first migration
// made them, so that each insert maintains as many indexes as the store's does.
const SCHEMA = `
  CREATE TABLE bench_tenants (id integer PRIMARY KEY, ids_count bigint NOT NULL);
  CREATE TABLE bench_objects (
    tenant_id text NOT NULL, kind text NOT NULL, id text NOT NULL, position bigint NOT NULL, status text NOT NULL,
    record json NOT NULL, request json NOT NULL, PRIMARY KEY (tenant_id, kind, id));
  CREATE INDEX bench_objects_list ON bench_objects (tenant_id, kind, position);
  CREATE INDEX bench_objects_list_status ON bench_objects (tenant_id, kind, status, position);
  CREATE TABLE bench_idempotency (
    tenant_id text NOT NULL, scope text NOT NULL, key text NOT NULL, position bigint NOT NULL, fingerprint text NOT NULL,
    expires_at double precision NOT NULL, answer json, PRIMARY KEY (tenant_id, scope, key));
`;

// Note: pgbench sends each :variable as a parameter of the extended protocol, as node-postgres sends the store's; any
// colon followed by a letter or digit reads as one, hence no JSON literal in the text.
const SCRIPT = `\\set t random(1, :tenants)
WITH tenant AS (
  UPDATE bench_tenants SET ids_count = ids_count + 1 WHERE id = :t RETURNING 'tenant_' || id AS tenant_id, ids_count
), object AS (
  INSERT INTO bench_objects (tenant_id, kind, id, position, status, record, request)
  SELECT tenant_id, 'payment', 'pay_' || ids_count, ids_count, 'created', replace(:record, '@ID@', 'pay_' || ids_count)::json, :request::json
  FROM tenant RETURNING tenant_id, id, position, record
)
INSERT INTO bench_idempotency (tenant_id, scope, key, position, fingerprint, expires_at, answer)
SELECT tenant_id, 'createPayment', 'key_' || id, position, :fingerprint, 86400000, json_build_object('ok', true, 'status', 200, 'body', record)
FROM object;
`;

const run = promisify(execFile);

/**
 * Prepares database `bench_pgbench` on the cluster and a script file; `sample(seconds)` runs pgbench once and resolves
 * to its commits a second, their number and their average latency; `close()` removes the script's folder.
 */
export async function pgbench(clusterUrl, { clients, threads, tenants }) {
  const url = await database(clusterUrl, 'bench_pgbench');
  await withClient(url, async (client) => {
    await client.query(SCHEMA);
    await client.query('INSERT INTO bench_tenants SELECT n, 0 FROM generate_series(1, $1::int) AS n', [tenants]);
  });
  const dir = await mkdtemp(path.join(tmpdir(), 'merchant-payments-pgbench-'));
  const script = path.join(dir, 'create.sql');
  await writeFile(script, SCRIPT);
  const { hostname, port } = new URL(clusterUrl);
  const binary = path.join(pgBin(), 'pgbench');
  const variables = { tenants, record: RECORD, request: REQUEST, fingerprint: 'x'.repeat(44) };
  return {
    url,
    async sample(seconds) {
      const args = [
        ...['-h', hostname, '-p', port, '-U', 'postgres', '-n', '-M', 'extended'],
        ...['-c', String(clients), '-j', String(threads), '-T', String(seconds), '-f', script],
        ...Object.entries(variables).flatMap(([name, value]) => ['-D', `${name}=${value}`]),
        'bench_pgbench',
      ];
      const { stdout } = await run(binary, args, { timeout: (seconds + 60) * 1000, maxBuffer: 1 << 20 });
      const tps = /^tps = ([\d.]+)/m.exec(stdout);
      const latency = /^latency average = ([\d.]+) ms/m.exec(stdout);
      const processed = /^number of transactions actually processed: (\d+)/m.exec(stdout);
      const failed = /^number of failed transactions: (\d+)/m.exec(stdout);
      if (!tps || !latency || !processed) throw new Error(`pgbench printed no tps, latency or count:\n${stdout}`);
      if (failed && Number(failed[1]) > 0) throw new Error(`pgbench: ${failed[1]} transactions failed:\n${stdout}`);
      return { commitsPerSecond: Number(tps[1]), latencyMs: Number(latency[1]), commits: Number(processed[1]) };
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** What the pgbench rows ran, for the section's notes. */
export const PGBENCH_SHAPE = `one statement of data-modifying CTEs: UPDATE the tenant's id count, INSERT an object of ${RECORD.length} bytes of JSON into a table with sandbox_objects' columns and indexes, INSERT its idempotency record with the answer`;
