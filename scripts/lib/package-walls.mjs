// The packages' walls, judged on dpdm's import tree (every import resolved to a file, tsconfig.json's paths included): an
// import that crosses from one package into another must name the other package (never a relative path into its
// folder), and that package must be one the importer's package.json lists.
import path from 'node:path';

/** The package a repository path belongs to (`packages/<name>/…`), or undefined. */
const packageOf = (file) => /^packages\/([^/]+)\//.exec(file.split(path.sep).join('/'))?.[1];

/** Every import of `tree` (dpdm's JSON `tree`) that crosses a wall, as a line naming the file, the import and why. */
export function wallViolations(tree, declared) {
  const found = [];
  for (const [file, imports] of Object.entries(tree)) {
    const from = packageOf(file);
    if (!from) continue;
    for (const { request, id } of imports ?? []) {
      const to = id && packageOf(id);
      if (!to || to === from) continue;
      if (request.startsWith('.'))
        found.push(
          `${file}: imports ${request} by a relative path into packages/${to}; import @merchant-payments/${to}`,
        );
      else if (!declared[from]?.includes(to))
        found.push(
          `${file}: imports ${request}, but packages/${from}/package.json does not list @merchant-payments/${to}` +
            ` (the ${from} package may import ${declared[from]?.join(', ') || 'no other package'})`,
        );
    }
  }
  return found;
}
