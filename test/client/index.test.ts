import { describe, expect, it } from 'vitest';
import * as root from '../../packages/contract/src/index.js';

describe('package root', () => {
  it('exports the clients, pagination, the Problem helpers and the error classes', () => {
    for (const name of [
      'createVariantAClient',
      'createVariantBClient',
      'paginate',
      'isProblem',
      'hasProblemCode',
      'describeProblem',
    ] as const) {
      expect(typeof root[name], name).toBe('function');
    }
    for (const ErrorClass of [root.ClientConfigError, root.NetworkError, root.TimeoutError, root.ProblemError]) {
      expect(ErrorClass.prototype).toBeInstanceOf(Error);
    }
  });

  it('re-exports the webhooks entry', async () => {
    const webhooks = await import('../../packages/contract/src/webhooks/index.js');
    expect(Object.keys(webhooks).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(webhooks)) expect(root[name as keyof typeof root], name).toBe(value);
  });

  it('exports no runtime value for the type-only namespaces', () => {
    expect(Object.keys(root)).not.toContain('VariantA');
    expect(Object.keys(root)).not.toContain('VariantB');
  });
});
