// Redocly plugin: composes each variant's spec from the parts both variants share, written once
// under packages/contract/openapi/. Its preprocessors run before `redocly lint` as well as before `redocly bundle`,
// so lint checks the operations as they are bundled. See packages/contract/openapi/README.md.
import path from 'node:path';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

// Note: the bundle lists an operation's fields in one order, whichever file each comes from.
const FIELD_ORDER = [
  'operationId',
  'summary',
  'description',
  'tags',
  'deprecated',
  'x-provenance',
  'security',
  'parameters',
  'requestBody',
  'responses',
  'x-assumed-responses',
  'x-assumed-parameters',
  'x-assumed',
];

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A deep copy of `node` whose relative `$ref`s, written in file `from`, point the same way from file `to`. */
function rebase(node, from, to) {
  if (Array.isArray(node)) return node.map((item) => rebase(item, from, to));
  if (!isObject(node)) return node;
  const copy = {};
  for (const [key, value] of Object.entries(node)) {
    copy[key] = key === '$ref' && typeof value === 'string' ? rebaseRef(value, from, to) : rebase(value, from, to);
  }
  return copy;
}

/** `ref` (relative to file `from`) made relative to file `to`; URLs stay as they are. */
function rebaseRef(ref, from, to) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return ref;
  const [file, pointer] = ref.split('#');
  const target = file ? path.resolve(path.dirname(from), file) : from;
  const relative = path.relative(path.dirname(to), target).split(path.sep).join('/');
  return pointer === undefined ? relative : `${relative}#${pointer}`;
}

/** `node` with its keys in FIELD_ORDER, the others after them in their own order. */
function ordered(node) {
  const keys = [...FIELD_ORDER.filter((k) => k in node), ...Object.keys(node).filter((k) => !FIELD_ORDER.includes(k))];
  return Object.fromEntries(keys.map((k) => [k, node[k]]));
}

/** Sorts a responses map by status code, as every operation lists them. */
const byCode = (responses) => Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));

/**
 * `shared` (an operation written once) with the variant's own fields added. Parameters are
 * concatenated and responses united; any other field written in both places is reported, so each
 * fact has one home.
 */
function merge(shared, own, report) {
  const merged = { ...shared };
  for (const [key, value] of Object.entries(own)) {
    if (!(key in merged)) merged[key] = value;
    else if (key === 'parameters') merged.parameters = [...merged.parameters, ...value];
    else if (key === 'responses') {
      for (const code of Object.keys(value))
        if (code in merged.responses)
          report(`response ${code} is written both here and in the shared operation`, [key, code]);
      merged.responses = byCode({ ...merged.responses, ...value });
    } else report(`\`${key}\` is written both here and in the shared operation`, [key]);
  }
  return merged;
}

/** The names of an operation's parameters, following `$ref`s from file `from`. */
function parameterNames(operation, from, ctx) {
  return (operation.parameters ?? []).map((p) => (p?.$ref ? ctx.resolve(p, from).node?.name : p?.name));
}

/**
 * Adds the error responses every operation answers with (`x-error-responses` of the root) to each
 * operation under `paths`, and lists the added ones the source does not state in
 * `x-assumed-responses` of an operation the source states.
 */
function addErrorResponses(operation, parameters, set) {
  const names = new Set(parameters);
  const responses = { ...operation.responses };
  const assumed = [];
  for (const [code, response] of Object.entries(set.responses)) {
    if (code in responses) continue;
    const needs = set['only-with-parameter']?.[code];
    if (needs && !names.has(needs)) continue;
    responses[code] = response;
    if (!set.stated?.includes(code)) assumed.push(code);
  }
  operation.responses = byCode(responses);
  if (operation['x-provenance'] === 'source' && assumed.length > 0) {
    operation['x-assumed-responses'] = [...new Set([...(operation['x-assumed-responses'] ?? []), ...assumed])].sort();
  }
}

/** Builds operations from `$ref`s to shared operations plus the variant's own fields, and adds the error responses. */
function sharedOperations() {
  const done = new WeakSet();
  let errorSet;
  let errorSetFile;
  return {
    Root: {
      enter(root, ctx) {
        const ref = root['x-error-responses'];
        if (!ref) return;
        const { node, location } = ctx.resolve(ref);
        if (!isObject(node)) return;
        errorSet = node;
        errorSetFile = location.source.absoluteRef;
        delete root['x-error-responses'];
      },
    },
    Paths: {
      PathItem: {
        enter(pathItem, ctx) {
          const here = ctx.location.source.absoluteRef;
          for (const method of METHODS) {
            let operation = pathItem[method];
            if (!isObject(operation) || done.has(operation) || (!errorSet && typeof operation.$ref !== 'string'))
              continue;
            const parameters = parameterNames(operation, here, ctx);
            if (typeof operation.$ref === 'string') {
              const { node: shared, location } = ctx.resolve(operation);
              if (!isObject(shared)) continue; // no-unresolved-refs reports it
              const { $ref, ...own } = operation;
              parameters.push(...parameterNames(shared, location.source.absoluteRef, ctx));
              const report = (message, pointer) =>
                ctx.report({ message, location: ctx.location.child([method, ...pointer]) });
              operation = merge(rebase(shared, location.source.absoluteRef, here), own, report);
            }
            if (errorSet)
              addErrorResponses(operation, parameters, {
                ...errorSet,
                responses: rebase(errorSet.responses, errorSetFile, here),
              });
            pathItem[method] = ordered(operation);
            done.add(pathItem[method]);
          }
        },
      },
    },
  };
}

/**
 * Joins `info.description`, `info.x-description-shared` and, when present, `info.x-description-provenance` (each may be
 * a `$ref` to Markdown) into one description, in that order.
 */
function sharedDescription() {
  const text = (value, ctx) => (value?.$ref ? ctx.resolve(value).node : value);
  return {
    Info: {
      enter(info, ctx) {
        if (!('x-description-shared' in info)) return;
        // Note: the provenance part comes last, so a reference page opens with what the API does and how to start.
        const keys = ['x-description-shared', 'x-description-provenance'].filter((key) => key in info);
        const parts = [text(info.description, ctx), ...keys.map((key) => text(info[key], ctx))];
        for (const key of keys) delete info[key];
        if (parts.every((p) => typeof p === 'string'))
          info.description = parts.map((p) => p.trimEnd()).join('\n\n') + '\n';
        else
          ctx.report({
            message: 'description and its x-description-* parts must all be text or $refs to Markdown',
            location: ctx.location.child(['description']),
          });
      },
    },
  };
}

/** A status list in a table cell: `a`, `b`. */
const cell = (statuses) => statuses.map((status) => `\`${status}\``).join(', ');

/** The Markdown table of a status schema's `x-lifecycle` rows, and the sentence that names its final statuses. */
export function lifecycleTable(lifecycle, statuses) {
  const rows = lifecycle.transitions.map(
    (row) =>
      `| ${row.from ? cell(row.from) : '(new)'} | \`${row.to}\` | ${row.when} | ${row.reason_code ? `\`${row.reason_code}\`` : ''} |`,
  );
  const final = statuses.filter((status) => !lifecycle.transitions.some((row) => row.from?.includes(status)));
  const list = final.length > 1 ? `${cell(final.slice(0, -1))} and ${cell(final.slice(-1))} are` : `${cell(final)} is`;
  return ['| from | to | when | `reason_code` set |', '|---|---|---|---|', ...rows, '', `${list} final.`].join('\n');
}

// Note: the transitions are written once, as data in `x-lifecycle`; readers get them as a table in the
// description, rendered here so that the two can never disagree.
function lifecycleTables() {
  const done = new WeakSet();
  return {
    Schema: {
      enter(schema) {
        const lifecycle = schema['x-lifecycle'];
        if (!isObject(lifecycle) || !Array.isArray(lifecycle.transitions) || done.has(schema)) return;
        done.add(schema);
        schema.description = `${(schema.description ?? '').trimEnd()}\n\n${lifecycleTable(lifecycle, schema.enum ?? [])}`;
      },
    },
  };
}

export default function contractPlugin() {
  return {
    id: 'contract',
    preprocessors: {
      oas3: {
        'shared-operations': sharedOperations,
        'shared-description': sharedDescription,
        'lifecycle-tables': lifecycleTables,
      },
    },
  };
}
