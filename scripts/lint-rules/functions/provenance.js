// Spectral function: x-provenance / x-assumed* marks are well formed and point at what exists (unresolved document).
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v) => typeof v === 'string' && v.trim().length > 0;
const pointer = (path) => `#/${path.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;

// Follows a local `#/...` $ref inside the document; returns the node itself otherwise.
const deref = (root, node) => {
  if (!isObject(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#/')) return node;
  return node.$ref
    .slice(2)
    .split('/')
    .reduce((acc, seg) => {
      const key = decodeURIComponent(seg).replace(/~1/g, '/').replace(/~0/g, '~');
      return isObject(acc) || Array.isArray(acc) ? acc[key] : undefined;
    }, root);
};

/** Reports malformed provenance marks and assumed response codes / parameter names that the operation lacks. */
export default function provenance(document) {
  const results = [];
  const report = (path, message) => results.push({ message: `${message} (at ${pointer(path)})`, path });
  const paramNames = (list) =>
    (Array.isArray(list) ? list : [])
      .map((p) => deref(document, p))
      .filter(isObject)
      .map((p) => p.name);

  const checkNode = (node, path, parent) => {
    if ('x-provenance' in node) {
      const value = node['x-provenance'];
      if (value !== 'source' && value !== 'assumed') {
        report([...path, 'x-provenance'], `x-provenance must be "source" or "assumed", found ${JSON.stringify(value)}`);
      } else if (value === 'assumed' && !nonEmpty(node.description)) {
        report(
          path,
          'An element marked x-provenance: assumed needs a non-empty description saying what was assumed and why',
        );
      }
    }
    if ('x-assumed' in node) {
      const marks = node['x-assumed'];
      if (!isObject(marks) || Object.keys(marks).length === 0) {
        report([...path, 'x-assumed'], 'x-assumed must be a non-empty map of keyword to reason');
      } else {
        for (const [keyword, reason] of Object.entries(marks)) {
          if (!nonEmpty(reason))
            report([...path, 'x-assumed', keyword], `x-assumed keyword "${keyword}" needs a non-empty reason`);
        }
      }
    }
    if ('x-assumed-responses' in node) {
      const codes = node['x-assumed-responses'];
      const declared = Object.keys(isObject(node.responses) ? node.responses : {});
      if (!Array.isArray(codes))
        report([...path, 'x-assumed-responses'], 'x-assumed-responses must be a list of response codes');
      else
        codes.forEach((code, i) => {
          if (!declared.includes(String(code)))
            report(
              [...path, 'x-assumed-responses', i],
              `x-assumed-responses lists ${code}, which is not among the operation's responses`,
            );
        });
    }
    if ('x-assumed-parameters' in node) {
      const names = node['x-assumed-parameters'];
      const declared = [...paramNames(node.parameters), ...paramNames(parent?.parameters)];
      if (!Array.isArray(names))
        report([...path, 'x-assumed-parameters'], 'x-assumed-parameters must be a list of parameter names');
      else
        names.forEach((name, i) => {
          if (!declared.includes(name))
            report(
              [...path, 'x-assumed-parameters', i],
              `x-assumed-parameters lists "${name}", which is not among the operation's parameters`,
            );
        });
    }
  };

  const walk = (node, path, parent) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...path, i], parent));
    if (!isObject(node)) return;
    checkNode(node, path, parent);
    for (const [key, value] of Object.entries(node)) walk(value, [...path, key], node);
  };
  walk(document, [], undefined);
  return results;
}
