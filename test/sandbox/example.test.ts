// examples/sandbox-flow.ts, the in-process form of the README's sandbox flow (docs/sandbox-guide.md describes it), runs as written.
import { describe, expect, it } from 'vitest';
import { sandboxFlow } from '../../examples/sandbox-flow.js';

describe('examples/sandbox-flow.ts', () => {
  it('creates a payment, receives its verified webhooks after an advance, and retrieves it succeeded', async () => {
    const lines: string[] = [];
    await sandboxFlow((line) => lines.push(line));
    const id = /^created (pay_\w+): created$/.exec(lines[0]!)?.[1];
    expect(lines).toEqual([
      `created ${id}: created`,
      `webhook payment.status_changed: ${id} is pending`,
      `webhook payment.status_changed: ${id} is succeeded`,
      `retrieved ${id}: succeeded`,
    ]);
  });
});
