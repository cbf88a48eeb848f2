import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validate } from '@readme/openapi-parser';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { apis, variants } from '../../scripts/lib/apis.mjs';
import { root } from '../../scripts/lib/tools.mjs';

// Note: @readme/openapi-parser validates against the official OpenAPI 3.1 JSON Schema with its own
// validator, independently of Redocly and Spectral.
describe('@readme/openapi-parser', () => {
  it.each(Object.entries(apis))('accepts the bundled %s spec as valid OpenAPI 3.1', async (_name, api) => {
    const doc = parse(readFileSync(path.join(root, api.output), 'utf8'));
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(doc);
    const errors = result.valid ? [] : result.errors;
    expect(errors, JSON.stringify(errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('rejects a spec that breaks the OpenAPI 3.1 schema', async () => {
    const api = Object.values(apis)[0]!;
    const doc = parse(readFileSync(path.join(root, api.output), 'utf8'));
    doc.paths['/payments-broken'] = { get: { responses: { '200': { content: 'not an object' } } } };
    const result = await validate(doc);
    expect(result.valid).toBe(false);
  });
});

describe('component names', () => {
  // Note: code generators turn components of every section into types of one namespace, so a name used
  // in two sections becomes a duplicate identifier (openapi-typescript-codegen) or a renamed type (hey-api).
  it.each(Object.entries(apis))('%s: no name is used by two component sections', (_name, api) => {
    const doc = parse(readFileSync(path.join(root, api.output), 'utf8'));
    const sections = new Map<string, string[]>();
    for (const [section, components] of Object.entries(doc.components as Record<string, object>)) {
      for (const name of Object.keys(components)) sections.set(name, [...(sections.get(name) ?? []), section]);
    }
    expect([...sections].filter(([, found]) => found.length > 1)).toEqual([]);
  });

  it.each(variants)('%s: the X-Timestamp parameter is not named like the Timestamp schema', (name) => {
    const doc = parse(readFileSync(path.join(root, apis[name]!.output), 'utf8'));
    expect(doc.components.parameters.TimestampHeader.name).toBe('X-Timestamp');
    expect(doc.components.schemas.Timestamp).toBeDefined();
  });
});

describe('patterns', () => {
  /** Every `pattern` keyword of a bundled spec. */
  const patterns = (file: string) => {
    const found: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'pattern' && typeof value === 'string') found.push(value);
        else walk(value);
      }
    };
    walk(parse(readFileSync(path.join(root, file), 'utf8')));
    return found;
  };

  // Note: hey-api's zod plugin turns a `\u` escape into the raw control byte, which makes its output a binary file.
  it.each(Object.entries(apis))('%s: no pattern writes a character as a \\u escape', (_name, api) => {
    expect(patterns(api.output).filter((p) => p.includes('\\u'))).toEqual([]);
  });

  it.each(Object.entries(apis))(
    '%s: the no-control-character patterns reject C0 controls and DEL and accept other text',
    (_name, api) => {
      const text = patterns(api.output).filter((p) => p.includes('\\x00'));
      expect(text.length).toBeGreaterThan(0);
      for (const pattern of new Set(text)) {
        const re = new RegExp(pattern, 'u');
        for (const control of ['\u0000', '\t', '\n', '\u001f', '\u007f'])
          expect(re.test(`a${control}b`), JSON.stringify(control)).toBe(false);
        expect(re.test('Jane Doé paid 15 € — ok ✓')).toBe(true);
      }
    },
  );
});
