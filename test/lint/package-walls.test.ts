// The packages' walls (scripts/lib/package-walls.mjs, run by `npm run lint` on dpdm's import tree): the graph the
// packages' manifests declare, and which imports cross a wall, judged on trees made for the purpose.
import { describe, expect, it } from 'vitest';
import { wallViolations } from '../../scripts/lib/package-walls.mjs';
import { declaredWorkspaces } from '../../scripts/lib/workspaces.mjs';

const declared = declaredWorkspaces();
const edge = (request: string, id: string) => ({ request, id });

describe('the packages', () => {
  it('depend as the layers do: the contract on none, the sandbox and the kit on the contract, the CLI on all three', () => {
    expect(declared).toEqual({
      contract: [],
      sandbox: ['contract'],
      conformance: ['contract'],
      cli: ['contract', 'sandbox', 'conformance'],
    });
  });
});

describe('wallViolations', () => {
  it('lets a package import itself by a relative path and a package it lists by its name', () => {
    const tree = {
      'packages/sandbox/src/index.ts': [
        edge('./core/index.js', 'packages/sandbox/src/core/index.ts'),
        edge('@merchant-payments/contract/internal/client/auth.js', 'packages/contract/src/client/auth.ts'),
        edge('hono', 'node_modules/hono/dist/index.js'),
      ],
    };
    expect(wallViolations(tree, declared)).toEqual([]);
  });

  it('names an import of a package the importer does not list, and what it may import', () => {
    const tree = {
      'packages/contract/src/index.ts': [edge('@merchant-payments/sandbox', 'packages/sandbox/src/index.ts')],
      'packages/conformance/src/run.ts': [
        edge('@merchant-payments/sandbox/internal/core/index.js', 'packages/sandbox/src/core/index.ts'),
      ],
    };
    expect(wallViolations(tree, declared)).toEqual([
      'packages/contract/src/index.ts: imports @merchant-payments/sandbox, but packages/contract/package.json does not list @merchant-payments/sandbox (the contract package may import no other package)',
      'packages/conformance/src/run.ts: imports @merchant-payments/sandbox/internal/core/index.js, but packages/conformance/package.json does not list @merchant-payments/sandbox (the conformance package may import contract)',
    ]);
  });

  it('names a relative import into another package, even one the importer lists', () => {
    const tree = {
      'packages/sandbox/src/index.ts': [edge('../../contract/src/index.js', 'packages/contract/src/index.ts')],
    };
    expect(wallViolations(tree, declared)).toEqual([
      'packages/sandbox/src/index.ts: imports ../../contract/src/index.js by a relative path into packages/contract; import @merchant-payments/contract',
    ]);
  });
});
