// Databases of the postgres section and the rows it seeds into them with SQL, in the sandbox's own tables (the
// migrations under packages/sandbox/src/stores/postgres/migrations/, run by an instance before any seeding), since making a
// million payments through the API would take the section's whole time. Each seed copies what the API made for one
// tenant, so that records and tenant rows keep the shape the store writes; columns are read from the catalogue, so
// that a column a migration adds is copied along.
import { createHash } from 'node:crypto';
import pg from 'pg';

// Note: as packages/sandbox/src/variants/credentials.ts names a Variant B tenant, so that SQL can reach the tenant a public key makes.
/** The id of the tenant a Variant B public key makes in open mode. */
export const tenantId = (publicKey) => `b_${createHash('sha256').update(publicKey).digest('base64url').slice(0, 22)}`;

/** The id of the `n`th payment seedPayments makes (n from 2). */
export const seededPaymentId = (n) => `pay_s${String(n).padStart(11, '0')}`;

/** Runs `fn` with a connected client of `url` and ends it. */
export async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates database `name` on the cluster; its URL. */
export async function database(clusterUrl, name) {
  await withClient(clusterUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  return url.href;
}

async function columnsOf(client, table) {
  const { rows } = await client.query(
    `SELECT column_name FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => r.column_name);
}

const exists = async (client, relation) =>
  (await client.query('SELECT to_regclass($1) IS NOT NULL AS found', [relation])).rows[0].found;

/** A tenant row's version expression: a fresh one where the schema has the sequence (so instances reload), else the copy's. */
async function versionExpression(client, copied) {
  return (await exists(client, 'sandbox_versions')) ? `nextval('sandbox_versions')` : copied;
}

/**
 * Sets the exact totals the writes keep (sandbox_counts: per tenant, kind and status) for `tenants` from their objects;
 * nothing on a schema without that table.
 */
async function refreshCounts(client, tenants) {
  if (!(await exists(client, 'sandbox_counts'))) return;
  await client.query(
    `INSERT INTO sandbox_counts (tenant_id, kind, status, n)
      SELECT tenant_id, kind, status, count(*) FROM sandbox_objects WHERE tenant_id = ANY($1::text[]) GROUP BY 1, 2, 3
      ON CONFLICT (tenant_id, kind, status) DO UPDATE SET n = excluded.n`,
    [tenants],
  );
}

/**
 * Copies the tenant's one payment (made through the API) into payments 2 to `to` with SQL, and brings the tenant row
 * along: a new version, an id count past every position (the store gives the next object the position its count
 * reaches), the ledger (to which every copy adds what the original does) and the exact totals.
 */
export const seedPayments = (client, publicKey, to) => seedTenantPayments(client, tenantId(publicKey), to);

/** seedPayments for the tenant of id `tenant` (an issued or test tenant, whose id no public key gives). */
export async function seedTenantPayments(client, tenant, to) {
  const columns = await columnsOf(client, 'sandbox_objects');
  const made = {
    id: 'g.id',
    position: 't.position + g.n',
    // Note: payment n is the tenant's n-th, as the store numbers its objects (a column the store's migrations add).
    ordinal: 't.ordinal + g.n - 1',
    record: `replace(t.record::text, '"' || t.id || '"', '"' || g.id || '"')::json`,
  };
  const { rows: originals } = await client.query(
    `SELECT id FROM sandbox_objects WHERE tenant_id = $1 AND kind = 'payment'`,
    [tenant],
  );
  if (originals.length !== 1)
    throw new Error(`seeding expects one payment in tenant ${tenant}, found ${originals.length}`);
  const batch = 200_000;
  for (let first = 2; first <= to; first += batch) {
    await client.query(
      `INSERT INTO sandbox_objects (${columns.join(', ')})
        SELECT ${columns.map((c) => made[c] ?? `t.${c}`).join(', ')}
        FROM sandbox_objects t, (SELECT n, 'pay_s' || lpad(n::text, 11, '0') AS id FROM generate_series($2::bigint, $3::bigint) AS n) AS g
        WHERE t.tenant_id = $1 AND t.kind = 'payment' AND t.id = $4`,
      [tenant, first, Math.min(to, first + batch - 1), originals[0].id],
    );
  }
  const tenantColumns = await columnsOf(client, 'sandbox_tenants');
  const set = [
    `ids_count = GREATEST(ids_count + $2, (SELECT max(position) + 1 FROM sandbox_objects WHERE tenant_id = $1))`,
  ];
  const values = [tenant, to - 1];
  if (tenantColumns.includes('version')) set.push(`version = ${await versionExpression(client, 'version')}`);
  if (tenantColumns.includes('ledger')) {
    const { rows } = await client.query('SELECT ledger::text AS ledger FROM sandbox_tenants WHERE id = $1', [tenant]);
    const total = BigInt(to);
    const ledger = JSON.parse(rows[0].ledger).map(([currency, available, pending]) => [
      currency,
      String(BigInt(available) * total),
      String(BigInt(pending) * total),
    ]);
    values.push(JSON.stringify(ledger));
    set.push(`ledger = $${values.length}::json`);
  }
  await client.query(`UPDATE sandbox_tenants SET ${set.join(', ')} WHERE id = $1`, values);
  await refreshCounts(client, [tenant]);
  await client.query('ANALYZE sandbox_objects');
}

/**
 * Copies the tenant of `publicKey`, its row and its objects, to the tenants of `publicKeys`, which then share its
 * secret key (the digest is copied along with the row).
 */
export async function copyTenant(client, publicKey, publicKeys) {
  const template = tenantId(publicKey);
  const tenantColumns = await columnsOf(client, 'sandbox_tenants');
  const objectColumns = await columnsOf(client, 'sandbox_objects');
  const version = await versionExpression(client, 't.version');
  const batch = 1_000;
  for (let first = 0; first < publicKeys.length; first += batch) {
    const ids = publicKeys.slice(first, first + batch).map(tenantId);
    const made = { id: 'n.id', version, due_wall_at: 'NULL' };
    await client.query(
      `INSERT INTO sandbox_tenants (${tenantColumns.join(', ')})
        SELECT ${tenantColumns.map((c) => made[c] ?? `t.${c}`).join(', ')}
        FROM sandbox_tenants t, unnest($2::text[]) AS n(id) WHERE t.id = $1`,
      [template, ids],
    );
    await client.query(
      `INSERT INTO sandbox_objects (${objectColumns.join(', ')})
        SELECT ${objectColumns.map((c) => (c === 'tenant_id' ? 'n.id' : `t.${c}`)).join(', ')}
        FROM sandbox_objects t, unnest($2::text[]) AS n(id) WHERE t.tenant_id = $1`,
      [template, ids],
    );
    await refreshCounts(client, ids);
  }
  await client.query('ANALYZE sandbox_tenants; ANALYZE sandbox_objects');
}

/**
 * Inserts `count` tenant rows copied from the tenant of `publicKey` (idle: no due time), as many merchants would leave
 * them, named idle_<first> on.
 */
export async function seedIdleTenants(client, publicKey, count, first = 1) {
  const columns = await columnsOf(client, 'sandbox_tenants');
  const made = { id: `'idle_' || n`, version: await versionExpression(client, 't.version'), due_wall_at: 'NULL' };
  await client.query(
    `INSERT INTO sandbox_tenants (${columns.join(', ')}) SELECT ${columns.map((c) => made[c] ?? `t.${c}`).join(', ')}
      FROM sandbox_tenants t, generate_series($3::int, $3::int + $2::int - 1) AS n WHERE t.id = $1`,
    [tenantId(publicKey), count, first],
  );
}

/** The cluster's WAL position in bytes, to tell how much WAL a run wrote. */
export async function walPosition(client) {
  const { rows } = await client.query('SELECT pg_current_wal_lsn()::text AS lsn');
  const [high, low] = rows[0].lsn.split('/').map((part) => BigInt(`0x${part}`));
  return Number((high << 32n) + low);
}

const ACTIVE = `SELECT pid FROM pg_stat_activity
  WHERE datname = $1 AND state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`;

/**
 * Waits until no client's statement runs in database `name`, cancelling those still running after `patienceMs`;
 * resolves to the ms it waited and the statements it cancelled.
 */
export function quiesce(clusterUrl, name, patienceMs) {
  return withClient(clusterUrl, async (client) => {
    const started = performance.now();
    let cancelled = 0;
    for (;;) {
      const { rows } = await client.query(ACTIVE, [name]);
      // Note: bounded, in case an instance keeps sending what its clients asked for long after they left.
      if (rows.length === 0 || performance.now() - started > 3 * patienceMs)
        return { ms: performance.now() - started, cancelled, left: rows.length };
      if (performance.now() - started > patienceMs) {
        for (const { pid } of rows) await client.query('SELECT pg_cancel_backend($1)', [pid]);
        cancelled += rows.length;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
}
