// The one `$ref` dereferencer of the scripts, tests and benchmarks: @apidevtools/json-schema-ref-parser over a bundled spec.
import { readFileSync } from 'node:fs';
import { $RefParser } from '@apidevtools/json-schema-ref-parser';
import { parse } from 'yaml';

/**
 * Reads a bundled spec (YAML; its `$ref`s are all local) and what its references point at. `doc` is the document as
 * written; `dereferenced` is a copy with every `$ref` replaced; `resolve(node)` follows a node's `$ref` one step and
 * `expand(node)` copies a node with every `$ref` in it replaced. Keywords written next to a `$ref` win, as in OpenAPI 3.1.
 */
export async function openBundle(file) {
  const doc = parse(readFileSync(file, 'utf8'));
  const asWritten = await new $RefParser().resolve(doc);
  const parser = new $RefParser();
  const dereferenced = await parser.dereference(structuredClone(doc));
  const resolve = (node) => {
    if (typeof node?.$ref !== 'string') return node;
    const { $ref, ...siblings } = node;
    return { ...asWritten.get($ref), ...siblings };
  };
  const expand = (node) => {
    if (Array.isArray(node)) return node.map(expand);
    if (node === null || typeof node !== 'object') return node;
    const { $ref, ...rest } = node;
    const own = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, expand(value)]));
    return typeof $ref === 'string' ? { ...structuredClone(parser.$refs.get($ref)), ...own } : own;
  };
  return { doc, dereferenced, resolve, expand };
}
