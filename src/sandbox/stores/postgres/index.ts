// The sandbox's durable store: `createPostgresStore`, opt-in (it needs `pg` and `node-pg-migrate` installed).
export { createPostgresStore, MIGRATIONS_TABLE, type PostgresClient, type PostgresPool, type PostgresStoreOptions } from './store.js';
