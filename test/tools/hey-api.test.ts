import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient, defaultPlugins } from '@hey-api/openapi-ts';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundles, makeWorkspace, root, type Workspace } from './workspace.js';
import { strictOptions, tsFiles, typecheck } from './typecheck.js';

// @hey-api/openapi-ts reads each bundle as a stranger would: its SDK, types and zod schemas must compile
// under the project's own strict settings, with every component under its own name.

// Note: a NUL makes git treat the file as binary; the other C0 controls (tab, LF, CR aside) and DEL have no place in source either.
const CONTROL_BYTES = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

const nodeNextStrict: ts.CompilerOptions = {
  ...strictOptions,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  noFallthroughCasesInSwitch: true,
  verbatimModuleSyntax: true,
};

/** Where each control byte sits, as `file:line: U+XXXX`. */
function controlBytes(dir: string, files: string[]): string[] {
  return files.flatMap((file) => {
    const lines = readFileSync(file, 'utf8').split('\n');
    return lines.flatMap((line, i) =>
      [...line.matchAll(CONTROL_BYTES)].map(
        (m) =>
          `${path.relative(dir, file)}:${i + 1}: U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
      ),
    );
  });
}

describe.each(bundles)('@hey-api/openapi-ts on $variant', ({ file }) => {
  let workspace: Workspace;
  let out: string;
  let files: string[];

  beforeAll(async () => {
    workspace = makeWorkspace('hey-api');
    out = path.join(workspace.dir, 'client');
    // Note: the workspace is an ES module package, as the project is, so NodeNext reads the output as ESM.
    writeFileSync(path.join(workspace.dir, 'package.json'), '{ "type": "module" }\n');
    await createClient({
      input: file,
      // Note: the project's tsconfig makes hey-api write NodeNext-style `.js` import specifiers.
      output: { path: out, tsConfigPath: path.join(root, 'tsconfig.json') },
      plugins: [...defaultPlugins, 'zod'],
      logs: { level: 'silent', file: false },
      interactive: false,
    });
    files = tsFiles(out);
  });

  afterAll(() => workspace?.remove());

  it('writes the SDK, its types, the fetch client and the zod schemas', () => {
    for (const name of ['index.ts', 'sdk.gen.ts', 'types.gen.ts', 'zod.gen.ts', 'client.gen.ts', 'client/index.ts']) {
      expect(existsSync(path.join(out, name)), name).toBe(true);
    }
  });

  it('writes text files without raw control bytes', () => {
    // Note: the zod schemas carry the contract's patterns, so this checks them rather than passing on their absence.
    expect(readFileSync(path.join(out, 'zod.gen.ts'), 'utf8')).toContain('.regex(');
    const found = controlBytes(out, files);
    expect(found, `control bytes in the generated client:\n${found.slice(0, 20).join('\n')}`).toEqual([]);
  });

  it('keeps every component under its own name (no numbered renames such as Timestamp2)', () => {
    const source = ['types.gen.ts', 'zod.gen.ts'].map((name) => readFileSync(path.join(out, name), 'utf8')).join('\n');
    const names = new Set([...source.matchAll(/^export (?:type|const) (\w+)/gm)].map((m) => m[1]));
    // Note: hey-api resolves a clash by appending a number to the second name, so `X2` beside `X` is a clash.
    const renamed = [...names].filter((name) => /\D\d+$/.test(name!) && names.has(name!.replace(/\d+$/, '')));
    expect(renamed, `hey-api renamed clashing names: ${renamed.join(', ')}`).toEqual([]);
    expect(source).not.toMatch(/\bz?Timestamp2\b/);
  });

  it('type-checks under strict', () => {
    const diagnostics = typecheck(files, nodeNextStrict, out);
    expect(diagnostics, `tsc found ${diagnostics.length} problem(s):\n${diagnostics.join('\n')}`).toEqual([]);
  });
});
