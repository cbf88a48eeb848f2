// The sandbox's durable store: `createPostgresStore`, opt-in (it needs `pg` and `node-pg-migrate` installed).
export type { PostgresClient, PostgresPool } from './pool.js';
export { createPostgresStore, MIGRATIONS_TABLE, type PostgresStoreOptions } from './store.js';
