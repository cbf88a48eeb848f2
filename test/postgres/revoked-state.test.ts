// The postgres store never makes a revoked tenant's row again: the shared suite (test/sandbox/revoked-state-suite.ts)
// on a database of its own per case.
import { afterAll } from 'vitest';
import { createHead } from '../../packages/sandbox/src/core/index.js';
import { createPostgresStore } from '../../packages/sandbox/src/stores/postgres/index.js';
import type { TenantStore } from '../../packages/sandbox/src/stores/types.js';
import { revokedStateSuite } from '../sandbox/revoked-state-suite.js';
import { freshDatabase } from './database.js';

const stores: TenantStore[] = [];
afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
});

revokedStateSuite('postgres', async () => {
  const store = await createPostgresStore({
    connectionString: await freshDatabase(),
    newTenant: (id) =>
      createHead(id, { clock: 'manual', start: 0, seed: 's', retryCompression: 60, eventLogLimit: 100 }),
  });
  stores.push(store);
  return store;
});
