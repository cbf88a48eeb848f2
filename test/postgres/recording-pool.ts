// A pool for the store that records the text of every statement it runs, on the pool and on the clients it lends, so
// that a test can count a command's round trips and read what its statements set.
import type pg from 'pg';
import type { PostgresPool } from '../../packages/sandbox/src/stores/postgres/index.js';

/** `pool` as the store's PostgresPool, each statement's text pushed to `texts` before it runs; never ends `pool`. */
export function recordingPool(pool: pg.Pool, texts: string[]): PostgresPool {
  const record = (statement: unknown) =>
    texts.push(typeof statement === 'string' ? statement : (statement as { text: string }).text);
  return {
    connect: async () => {
      const client = await pool.connect();
      return {
        query: (statement: unknown, values?: unknown[]) => {
          record(statement);
          return client.query(statement as never, values as never);
        },
        release: (error?: Error | boolean) => client.release(error),
      };
    },
    end: () => Promise.resolve(),
    query: (statement: unknown, values?: unknown[]) => {
      record(statement);
      return pool.query(statement as never, values as never);
    },
  } as unknown as PostgresPool;
}
