// Spectral function: a path item's POST operation must declare the Idempotency-Key header parameter, but on the paths
// the ruleset lists in `except` (each with its reason there).
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reports a POST operation (resolved document) whose header parameters lack the Idempotency-Key header. */
export default function idempotencyKey(pathItem, options, context) {
  if (!isObject(pathItem) || !isObject(pathItem.post)) return [];
  const header = options?.header ?? 'Idempotency-Key';
  const path = context.path[context.path.length - 1];
  if (Array.isArray(options?.except) && options.except.includes(path)) return [];
  const where = `POST ${path}`;
  const opPath = [...context.path, 'post'];
  const params = [pathItem.parameters, pathItem.post.parameters].flatMap((list) => (Array.isArray(list) ? list : []));
  const found = params.find(
    (p) =>
      isObject(p) && p.in === 'header' && typeof p.name === 'string' && p.name.toLowerCase() === header.toLowerCase(),
  );
  if (!found) return [{ message: `${where} does not declare the ${header} header parameter`, path: opPath }];
  if (options?.required && found.required !== true) {
    return [{ message: `${where} declares the ${header} header parameter without required: true`, path: opPath }];
  }
  return [];
}
