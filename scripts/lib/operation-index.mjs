// What a router and a validator need to know about each operation of a bundled spec: method, path template,
// parameters (with how their text is read), request body and responses, each schema named by its validator.

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const JSON_MEDIA = /^application\/([a-z0-9.+-]*\+)?json$/;

/** The component a node refers to (`Limit` for `#/components/parameters/Limit`), if any. */
const componentOf = (node) => (typeof node.$ref === 'string' ? node.$ref.split('/').pop() : undefined);

const escapePointer = (segment) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

/** The JSON type of a parameter's value (`null` ignored), from `type`, `allOf`, `enum` or `const`; throws when several remain. */
function valueType(schema, where) {
  const found = new Set();
  const visit = (node) => {
    for (const type of [node.type ?? []].flat()) if (type !== 'null') found.add(type);
    for (const value of [...(node.enum ?? []), ...('const' in node ? [node.const] : [])]) {
      if (value !== null) found.add(Number.isInteger(value) ? 'integer' : typeof value);
    }
    for (const member of node.allOf ?? []) visit(member);
  };
  visit(schema);
  if (found.has('integer') && found.has('number')) found.delete('integer');
  if (found.size !== 1)
    throw new Error(
      `${where}: the parameter's schema must have one type to read its text as, not ${[...found].join(', ') || 'none'}`,
    );
  const [type] = found;
  if (type === 'object') throw new Error(`${where}: object parameters are not supported`);
  if (type !== 'array') return { type };
  const items = valueType(schema.items ?? {}, `${where} items`);
  if (items.type === 'array') throw new Error(`${where}: arrays of arrays are not supported`);
  return { type, items: items.type };
}

const DEFAULT_STYLE = { path: 'simple', query: 'form', header: 'simple' };

/** One parameter as the index lists it; `add` registers its schema and answers the validator's name. */
function parameterSpec(parameter, bundle, add, hint, where) {
  const at = `${where} parameter ${parameter.in} ${parameter.name}`;
  if (!DEFAULT_STYLE[parameter.in]) throw new Error(`${at}: parameters in ${parameter.in} are not supported`);
  if (!parameter.schema) throw new Error(`${at}: a parameter needs a schema (content is not supported)`);
  const style = parameter.style ?? DEFAULT_STYLE[parameter.in];
  if (style !== DEFAULT_STYLE[parameter.in]) throw new Error(`${at}: style ${style} is not supported`);
  const expanded = bundle.expand(parameter.schema);
  const type = valueType(expanded, at);
  return {
    name: parameter.name,
    in: parameter.in,
    required: parameter.required === true,
    ...type,
    ...(type.type === 'array' ? { explode: parameter.explode ?? style === 'form' } : {}),
    ...(expanded.default !== undefined ? { default: expanded.default } : {}),
    validator: add(parameter.schema, hint),
  };
}

/** Media type → validator name, for the JSON media types of a content map; throws on any other media type. */
function contentSpec(content, add, hint, where) {
  const found = {};
  for (const [media, { schema }] of Object.entries(content ?? {})) {
    if (!JSON_MEDIA.test(media)) throw new Error(`${where}: media type ${media} is not supported (JSON only)`);
    if (!schema) throw new Error(`${where}: ${media} has no schema`);
    found[media] = { validator: add(schema, hint) };
  }
  return found;
}

/** A response as the index lists it: its headers (Content-Type left out, as OpenAPI says) and its content. */
function responseSpec(response, bundle, add, hint, where) {
  const headers = Object.entries(response.headers ?? {})
    .filter(([name]) => name.toLowerCase() !== 'content-type')
    .map(([name, node]) => {
      const header = { ...bundle.resolve(node), name, in: 'header' };
      return parameterSpec(header, bundle, add, `${componentOf(node) ?? `${hint}${name}`}Header`, where);
    });
  return { headers, content: contentSpec(response.content, add, `${hint}Body`, where) };
}

/** The security requirements of an operation, each scheme with where its credential goes. */
function securitySpec(requirements, schemes) {
  return (requirements ?? []).map((requirement) =>
    Object.keys(requirement).map((scheme) => {
      const { type, scheme: httpScheme, in: location, name } = schemes[scheme] ?? {};
      return { scheme, type, ...(httpScheme ? { httpScheme } : {}), ...(location ? { in: location, name } : {}) };
    }),
  );
}

/**
 * Reads every operation of an opened bundle (scripts/lib/refs.mjs) into index entries, with the response components
 * they share listed once in `responses`; `add(schema, hint)` registers a schema and answers its validator's name.
 */
export function readOperations(bundle, add, label) {
  const { doc } = bundle;
  const responses = {};
  const operations = [];
  const responseName = (operationId, status, node) => {
    const name = componentOf(node) ?? `${operationId} ${status}`;
    responses[name] ??= responseSpec(
      bundle.resolve(node),
      bundle,
      add,
      name.replace(' ', ''),
      `${label} response ${name}`,
    );
    return name;
  };
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    const pathItem = bundle.resolve(item);
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      const where = `${label} ${method.toUpperCase()} ${template}`;
      if (!operation.operationId) throw new Error(`${where} has no operationId`);
      const byKey = new Map();
      for (const node of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]) {
        const parameter = bundle.resolve(node);
        if (parameter.in === 'cookie') throw new Error(`${where}: cookie parameters are not supported`);
        const hint = `${componentOf(node) ?? `${operation.operationId}${parameter.name}`}Parameter`;
        byKey.set(`${parameter.in}:${parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name}`, {
          parameter,
          hint,
        });
      }
      const body = operation.requestBody ? bundle.resolve(operation.requestBody) : undefined;
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path: template,
        pointer: `/paths/${escapePointer(template)}/${method}`,
        security: securitySpec(operation.security ?? doc.security, doc.components?.securitySchemes ?? {}),
        parameters: [...byKey.values()].map(({ parameter, hint }) =>
          parameterSpec(parameter, bundle, add, hint, where),
        ),
        ...(body
          ? {
              requestBody: {
                required: body.required === true,
                content: contentSpec(body.content, add, `${operation.operationId}Body`, where),
              },
            }
          : {}),
        responses: Object.fromEntries(
          Object.entries(operation.responses ?? {}).map(([status, node]) => [
            status,
            responseName(operation.operationId, status, node),
          ]),
        ),
      });
    }
  }
  return { operations, responses };
}

/**
 * The problem `code`s the bundle's problem examples show, each with its status, title and type URI; throws when two
 * examples disagree about a code.
 */
export function readProblems(bundle, label) {
  const problems = {};
  for (const [name, node] of Object.entries(bundle.doc.components?.responses ?? {})) {
    const examples = bundle.expand(node).content?.['application/problem+json']?.examples ?? {};
    for (const { value } of Object.values(examples)) {
      const entry = { status: value.status, title: value.title, type: value.type };
      const known = problems[value.code];
      if (known && JSON.stringify(known) !== JSON.stringify(entry)) {
        throw new Error(
          `${label} response ${name}: problem ${value.code} is shown as ${JSON.stringify(entry)} and elsewhere as ${JSON.stringify(known)}`,
        );
      }
      problems[value.code] = entry;
    }
  }
  return problems;
}
