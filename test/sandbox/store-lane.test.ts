// Which store the sandbox behaviour files run on: memory in the fast lane, postgres when the `postgres` project runs
// them again (vitest.config.ts, `bothStores`). Fails if a project runs them on the other store, or if a postgres run
// keeps its objects anywhere but its database.
import { describe, expect, it } from 'vitest';
import type { MemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import { clientA, databaseOf, openTestSandbox, paymentBody, STORE } from './fixtures.js';

describe(`the sandbox files' store (${STORE})`, () => {
  it('is the one of the project that runs them, and keeps the objects a request makes', async ({ task }) => {
    expect(STORE).toBe(task.file.projectName === 'postgres' ? 'postgres' : 'memory');
    const sandbox = await openTestSandbox();
    const created = await clientA(sandbox).POST('/payments', { body: paymentBody() });
    const id = created.data!.data.id;
    const tenant = sandbox.tenantId({ accessToken: 'token-a' });
    if (STORE === 'postgres') {
      const { default: pg } = await import('pg');
      const client = new pg.Client({ connectionString: databaseOf(sandbox) });
      await client.connect();
      try {
        const { rows } = await client.query('SELECT tenant_id, status FROM sandbox_objects WHERE id = $1', [id]);
        expect(rows).toEqual([{ tenant_id: tenant, status: 'created' }]);
      } finally {
        await client.end();
      }
      expect('entries' in sandbox.store).toBe(false);
    } else {
      const tenants = new Map((sandbox.store as MemoryStore).entries());
      expect(tenants.get(tenant)?.payments.get(id)?.id).toBe(id);
    }
  });
});
