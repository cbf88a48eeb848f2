// The memory store never makes a revoked tenant's state again, through the shared suite (the postgres store runs it in
// test/postgres/revoked-state.test.ts).
import { createHead } from '../../packages/sandbox/src/core/index.js';
import { createMemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import { revokedStateSuite } from './revoked-state-suite.js';

revokedStateSuite('memory', async () =>
  createMemoryStore({
    newTenant: (id) =>
      createHead(id, { clock: 'manual', start: 0, seed: 's', retryCompression: 60, eventLogLimit: 100 }),
  }),
);
