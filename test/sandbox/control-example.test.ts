// examples/sandbox-control.ts, shown in docs/sandbox-guide.md, runs as written against a sandbox listening on a free port.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newSandbox } from './fixtures.js';

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  vi.restoreAllMocks();
});

describe('examples/sandbox-control.ts', () => {
  it('advances its tenant’s clock by five minutes through the control client over HTTP, and prints what ran', async () => {
    const sandbox = newSandbox();
    const { url } = await sandbox.listen({ port: 0 });
    Object.assign(process.env, {
      MERCHANT_PAYMENTS_SANDBOX_URL: url,
      PAYMENTS_PUBLIC_KEY: 'pk_example',
      PAYMENTS_SECRET_KEY: 'sk_example',
    });
    const lines: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args));
    await import('../../examples/sandbox-control.js');
    expect(lines).toEqual([['2026-01-01T00:05:00Z', 0, 0]]);
    expect((await sandbox.now({ publicKey: 'pk_example' })).toISOString()).toBe('2026-01-01T00:05:00.000Z');
  });
});
