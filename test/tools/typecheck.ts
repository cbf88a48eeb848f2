import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** Every .ts file under `dir`, skipping the node_modules link. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.split(path.sep).includes('node_modules'))
    .map((f) => path.join(dir, f))
    .sort();
}

/** Options under which generated code must compile: strict, no emit, no ambient Node types. */
export const strictOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  // Note: the generated fetch clients iterate URLSearchParams and Headers, which needs DOM.Iterable.
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
  types: [],
  skipLibCheck: true,
  isolatedModules: true,
};

/** Type-checks `files` and returns each diagnostic as `file(line,col): TSnnnn message`, paths relative to `base`. */
export function typecheck(files: string[], options: ts.CompilerOptions, base: string): string[] {
  const program = ts.createProgram(files, options);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return `TS${d.code} ${message}`;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${path.relative(base, d.file.fileName)}(${line + 1},${character + 1}): TS${d.code} ${message}`;
  });
}
