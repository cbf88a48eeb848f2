// docs/typescript-errors.md shows the compiler's own messages: each example, compiled without its @ts-expect-error
// lines, gives exactly the errors the text block after it lists (a line ending in `…` gives the start of one).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { snippetCompilerOptions } from './snippet-options.js';

const page = readFileSync(path.join(root, 'docs/typescript-errors.md'), 'utf8');
const DIRECTIVE = /^\s*\/\/ @ts-expect-error.*$/gm;

/** Each example of the page with the messages listed after it. */
const examples = [...page.matchAll(/^```ts\n([\s\S]*?)^```\n\n```text\n([\s\S]*?)^```$/gm)].map((match, i) => ({
  name: `example-${i + 1}.mts`,
  code: match[1]!,
  messages: match[2]!.trimEnd().split('\n'),
}));

const dir = mkdtempSync(path.join(os.tmpdir(), 'typescript-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The headline of each error in each file, in order, as `TSnnnn: message`. */
function compile(files: { name: string; code: string }[]): Map<string, string[]> {
  for (const { name, code } of files) writeFileSync(path.join(dir, name), code);
  const program = ts.createProgram(
    files.map(({ name }) => path.join(dir, name)),
    ts.convertCompilerOptionsFromJson(snippetCompilerOptions, dir).options,
  );
  const found = new Map<string, string[]>(files.map(({ name }) => [name, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const name = diagnostic.file ? path.basename(diagnostic.file.fileName) : '(no file)';
    const headline = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n').split('\n')[0];
    const list = found.get(name) ?? found.set(name, []).get(name)!;
    list.push(`TS${diagnostic.code}: ${headline}`);
  }
  return found;
}

describe('docs/typescript-errors.md', () => {
  it('shows the messages the compiler gives for its examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const found = compile(examples.map(({ name, code }) => ({ name, code: code.replace(DIRECTIVE, '') })));
    expect(found.get('(no file)')).toBeUndefined();
    for (const { name, code, messages } of examples) {
      const actual = found.get(name)!;
      expect(actual, `${name}: one error per @ts-expect-error`).toHaveLength(code.match(DIRECTIVE)!.length);
      expect(actual.length, name).toBe(messages.length);
      messages.forEach((shown, i) => {
        if (shown.endsWith('…')) expect(actual[i]!.startsWith(shown.slice(0, -1)), `${name}: ${actual[i]}`).toBe(true);
        else expect(actual[i], name).toBe(shown);
      });
    }
  });
});
