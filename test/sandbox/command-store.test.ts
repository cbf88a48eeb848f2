// The sandbox command's --store flag and the removed --state, run in-process with runMain: the answers that need no
// database (test/postgres/command.test.ts runs it against one).
import getPort from 'get-port';
import { describe, expect, it } from 'vitest';
import { main } from '../../packages/sandbox/src/cli/command.js';
import { createSandbox, openSandbox } from '../../packages/sandbox/src/index.js';
import { runMain } from '../cli/run-main.js';

describe('merchant-payments sandbox --store', () => {
  it('exits 2 on --state, pointing to --store postgres', async () => {
    const { code, stderr } = await runMain(main, ['--port', '0', '--state', 'sandbox.bin']);
    expect(code).toBe(2);
    expect(stderr).toContain('--state was removed');
    expect(stderr).toContain('--store postgres and DATABASE_URL set');
  });

  it('exits 2 on a store it does not know', async () => {
    const { code, stderr } = await runMain(main, ['--port', '0', '--store', 'redis']);
    expect([code, stderr]).toEqual([2, expect.stringContaining('--store must be "memory" or "postgres", got "redis"')]);
  });

  it('exits 1 naming DATABASE_URL, never its password, when the database cannot be reached', async () => {
    const password = 'a-password-that-stays-secret';
    const url = `postgres://sandbox:${password}@127.0.0.1:${await getPort()}/sandbox`;
    const { code, stdout, stderr } = await runMain(main, ['--port', '0', '--store', 'postgres'], {
      DATABASE_URL: url,
      PGPASSWORD: undefined,
      PGCONNECT_TIMEOUT: '30',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('cannot use the PostgreSQL database named by DATABASE_URL: ');
    expect(`${stdout}${stderr}`).not.toContain(password);
  });
});

describe('createSandbox and openSandbox', () => {
  it("refuses store: 'postgres' in createSandbox, which cannot wait for it, and the removed stateFile", () => {
    expect(() => createSandbox({ store: 'postgres' })).toThrow(/await openSandbox\(\{ store: 'postgres' \}\)/);
    expect(() => createSandbox({ stateFile: 'sandbox.bin' } as never)).toThrow(
      /stateFile was removed: .* store: "postgres"/,
    );
    expect(() => createSandbox({ store: 'memory', databaseUrl: 'postgres://127.0.0.1/x' })).toThrow(
      /databaseUrl is the database of store: "postgres"/,
    );
  });

  it('opens a memory sandbox as createSandbox makes one', async () => {
    const sandbox = await openSandbox();
    const response = await sandbox.fetch(
      new Request('http://sandbox.test/payments', {
        method: 'POST',
        headers: { authorization: 'Bearer t', 'content-type': 'application/json', 'idempotency-key': 'k1' },
        body: JSON.stringify({ amount: '1.00', currency: 'EUR', requisite: { type: 'card' } }),
      }),
    );
    expect(response.status).toBe(200);
    await sandbox.close();
  });
});
