import { existsSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'openapi-typescript-codegen';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundles, makeWorkspace, type Workspace } from './workspace.js';
import { strictOptions, tsFiles, typecheck } from './typecheck.js';

// openapi-typescript-codegen puts every schema and parameter component into one namespace of models,
// so a name used twice in the contract surfaces here as a compile error.

// Note: its imports carry no file extension, so the output is checked as bundler code, not NodeNext.
const bundlerStrict: ts.CompilerOptions = {
  ...strictOptions,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
};

describe.each(bundles)('openapi-typescript-codegen on $variant', ({ file }) => {
  let workspace: Workspace;
  let out: string;

  beforeAll(async () => {
    workspace = makeWorkspace('codegen');
    out = path.join(workspace.dir, 'client');
    await generate({ input: file, output: out, httpClient: 'fetch' });
  });

  afterAll(() => workspace?.remove());

  it('writes the models, the services and an index', () => {
    expect(existsSync(path.join(out, 'index.ts'))).toBe(true);
    expect(tsFiles(path.join(out, 'models')).length).toBeGreaterThan(0);
    expect(tsFiles(path.join(out, 'services')).length).toBeGreaterThan(0);
  });

  it('compiles under strict', () => {
    const diagnostics = typecheck(tsFiles(out), bundlerStrict, out);
    expect(diagnostics, `tsc found ${diagnostics.length} problem(s):\n${diagnostics.join('\n')}`).toEqual([]);
  });
});
