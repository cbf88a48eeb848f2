// Spectral function: money fields must reference the shared Money / Amount schemas (unresolved document).
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
// Keys whose values are data, not schemas (`default` is a response under `responses`).
const DATA_KEYS = new Set(['example', 'examples', 'enum', 'const']);
const pointer = (path) => `#/${path.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

/** Reports every schema property named in `options.fields[].names` that is not a `$ref` to that field's `ref`. */
export default function moneySchema(document, options) {
  const byName = new Map();
  for (const { ref, names } of options?.fields ?? []) for (const n of names) byName.set(n, ref);
  const results = [];
  const check = (name, schema, path) => {
    const ref = byName.get(name);
    if (ref === undefined) return;
    const actual = isObject(schema) ? schema.$ref : undefined;
    if (actual === ref) return;
    const found = typeof actual === 'string' ? `a $ref to ${actual}` : 'an inline schema';
    results.push({ message: `Property "${name}" at ${pointer(path)} must be a $ref to ${ref}, found ${found}`, path });
  };
  const walk = (node, path, parentKey) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...path, i], parentKey));
    if (!isObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      if (DATA_KEYS.has(key) || key.startsWith('x-') || (key === 'default' && parentKey !== 'responses')) continue;
      if (key === 'properties' && isObject(value)) {
        for (const [name, schema] of Object.entries(value)) {
          check(name, schema, [...path, key, name]);
          walk(schema, [...path, key, name], name);
        }
      } else walk(value, [...path, key], key);
    }
  };
  walk(document, [], undefined);
  return results;
}
