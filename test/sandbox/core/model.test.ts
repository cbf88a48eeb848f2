// The model-based property test (model.ts) on the memory store, the sandbox's default; test/postgres/model.test.ts
// runs the same sequences on the postgres store.
import { describe, it } from 'vitest';
import { createMemoryStore } from '../../../packages/sandbox/src/stores/memory.js';
import { checkModel, modelTenant } from './model.js';

describe('the sandbox core against a reference model, on the memory store', () => {
  it('keeps retrieves, lists, transitions, refunds, the balance and event order consistent under random sequences', async () => {
    await checkModel([createMemoryStore({ newTenant: modelTenant })], { numRuns: 80 });
  });
});
