// JSON for generated TypeScript data: a value that fits on one line stays on it, so long tables stay short to read.

/**
 * `value` as JSON indented by two spaces, where any array or object that fits in `width` columns (with the `lead`
 * written before it on its line) is written on one line.
 */
export function compactJson(value, width = 150, indent = '', lead = 0) {
  const flat = JSON.stringify(value);
  if (value === null || typeof value !== 'object' || indent.length + lead + flat.length <= width) return flat;
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((item) => `${inner}${compactJson(item, width, inner)}`)
    : Object.entries(value).map(
        ([key, item]) =>
          `${inner}${JSON.stringify(key)}: ${compactJson(item, width, inner, JSON.stringify(key).length + 2)}`,
      );
  if (entries.length === 0) return flat;
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  return `${open}\n${entries.join(',\n')}\n${indent}${close}`;
}
