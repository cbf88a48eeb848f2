// The model-based property test (test/sandbox/core/model.ts) on the postgres store: the same random sequences, each
// step a transaction on a real database, so that a state the store loses, reorders or stores differently from memory
// (a delivery, a key, a ledger entry) fails a check. Two instances on one database take the steps in turn, so each
// step starts from what the other instance stored rather than from its own cache. Fewer runs than on memory, as each
// step is a round trip; each run takes a new tenant on the file's database.
import { describe, it } from 'vitest';
import { createPostgresStore } from '../../packages/sandbox/src/stores/postgres/index.js';
import { checkModel, modelTenant } from '../sandbox/core/model.js';
import { freshDatabase } from './database.js';

describe('the sandbox core against a reference model, on the postgres store', () => {
  it('keeps retrieves, lists, transitions, refunds, the balance and event order consistent under random sequences', async () => {
    const connectionString = await freshDatabase();
    const open = () => createPostgresStore({ connectionString, newTenant: modelTenant });
    await checkModel([await open(), await open()], { numRuns: 15 });
  });
});
