// A database of its own for each test file on the run's cluster, so that files never see each other's tables.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** Creates `test_<random>` on the cluster the global setup started; its URL. */
export async function freshDatabase(): Promise<string> {
  const url = new URL(inject('databaseUrl'));
  const name = `test_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: url.href });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  url.pathname = `/${name}`;
  return url.href;
}
