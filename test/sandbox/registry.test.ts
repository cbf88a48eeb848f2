// The memory store's registry of issued tenants, through the shared suite (the postgres store's runs it in
// test/postgres/registry.test.ts).
import { createMemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import { createHead } from '../../packages/sandbox/src/core/index.js';
import { registrySuite } from './registry-suite.js';

registrySuite(
  'memory',
  async () =>
    createMemoryStore({
      newTenant: (id) =>
        createHead(id, { clock: 'manual', start: 0, seed: 's', retryCompression: 60, eventLogLimit: 100 }),
    }).registry!,
);
