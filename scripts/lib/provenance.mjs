// Collects every assumption marked in a bundled OpenAPI document, with its JSON pointer and reason.

/** Escapes one JSON Pointer token (RFC 6901). */
export const escapeToken = (token) => String(token).replaceAll('~', '~0').replaceAll('/', '~1');

/** First paragraph of a description, on one line. */
export function firstParagraph(text) {
  return String(text ?? '')
    .trim()
    .split(/\n\s*\n/)[0]
    .replace(/\s+/g, ' ')
    .trim();
}

/** Every assumption in a bundle opened by openBundle (lib/refs.mjs): [{ pointer, kind, reason }], sorted by pointer. */
export function collectAssumptions({ doc, resolve }) {
  const found = [];
  const walk = (node, pointer) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${pointer}/${i}`));
      return;
    }
    if (!node || typeof node !== 'object') return;
    if (node['x-provenance'] === 'assumed') {
      found.push({ pointer, kind: kindOf(pointer), reason: firstParagraph(node.description) });
    }
    for (const [keyword, reason] of Object.entries(node['x-assumed'] ?? {})) {
      found.push({
        pointer: `${pointer}/${keyword}`,
        kind: `keyword \`${keyword.split('/')[0]}\``,
        reason: firstParagraph(reason),
      });
    }
    for (const code of node['x-assumed-responses'] ?? []) {
      const response = resolve(node.responses?.[code]);
      found.push({
        pointer: `${pointer}/responses/${code}`,
        kind: `response ${code}`,
        reason: firstParagraph(response?.['x-assumed-reason']),
      });
    }
    for (const name of node['x-assumed-parameters'] ?? []) {
      const index = (node.parameters ?? []).findIndex((p) => resolve(p)?.name === name);
      const parameter = resolve(node.parameters?.[index]);
      found.push({
        pointer: `${pointer}/parameters/${index}`,
        kind: `parameter \`${name}\``,
        reason: firstParagraph(parameter?.['x-assumed-reason']),
      });
    }
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('x-') || key === 'examples' || key === 'example') continue;
      walk(value, `${pointer}/${escapeToken(key)}`);
    }
  };
  walk(doc, '');
  return found.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

/** A short name for what a pointer addresses. */
export function kindOf(pointer) {
  const tokens = pointer.split('/').slice(1);
  const last = tokens.at(-1);
  const parent = tokens.at(-2);
  if ((tokens[0] === 'paths' || tokens[0] === 'webhooks') && tokens.length === 3) return 'operation';
  if (tokens[0] === 'servers' && tokens.length === 2) return 'server';
  if (parent === 'properties') return 'property';
  if (tokens[0] === 'components' && tokens.length === 3)
    return `${tokens[1].replace(/s$/, '').replace('requestBodie', 'requestBody')} \`${last}\``;
  if (parent === 'parameters') return 'parameter';
  if (parent === 'headers') return 'header';
  if (parent === 'responses') return `response ${last}`;
  return last ?? 'document';
}
