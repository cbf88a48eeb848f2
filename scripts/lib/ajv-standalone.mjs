// Ajv as the generators of packages/contract/generated/ use it: the contract's annotation keywords, formats the standalone code can carry,
// schemas stripped of prose, and standalone ESM code with no dependency on Ajv at run time.
import { createRequire } from 'node:module';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { fastFormats, fullFormats } from 'ajv-formats/dist/formats.js';
import { _ } from 'ajv';
import traverse from 'json-schema-traverse';

// Note: required, not imported, so that Node and vitest see the same CommonJS export (the function is inlined as text).
const ucs2length = createRequire(import.meta.url)('ajv/dist/runtime/ucs2length').default;

/**
 * Keywords Ajv is to read as annotations: the OpenAPI Object's fields (Ajv compiles the whole bundle as the root of
 * every `$ref`), OpenAPI's own schema keywords, and the contract's extensions (packages/contract/openapi/README.md). Any other keyword
 * Ajv does not know is an error (strict mode).
 * Note: `discriminator` is read as an annotation, not with Ajv's `discriminator` option: the oneOf over each branch's
 * `const` tag decides the same, and the generated validators' messages stay those of oneOf.
 */
const ANNOTATIONS = [
  'openapi',
  'info',
  'jsonSchemaDialect',
  'servers',
  'paths',
  'webhooks',
  'components',
  'security',
  'tags',
  'externalDocs',
  'discriminator',
  'xml',
  'example',
  'x-provenance',
  'x-assumed',
];

// Note: ajv-formats' numeric formats are functions; the generated module carries these copies as `formats`.
const FORMAT_FUNCTIONS = {
  int32: '(value) => Number.isInteger(value) && value <= 2147483647 && value >= -2147483648',
  int64: '(value) => Number.isInteger(value)',
  float: '() => true',
  double: '() => true',
};

/**
 * Each format of ajv-formats as the generated code checks it: the copies above, else the full form when it is a
 * regular expression, else the fast form; formats with neither stay unknown, and Ajv refuses a schema that uses one.
 * Note: a pattern is inlined into the generated code, while a format function would pull all of ajv-formats into the
 * bundle; the fast date-time and uri forms check syntax only (a 31st of February passes).
 */
function addFormats(ajv) {
  for (const name of Object.keys(fullFormats)) {
    const candidates = [fullFormats[name], fastFormats[name], fastFormats[name]?.validate];
    const format = FORMAT_FUNCTIONS[name]
      ? fullFormats[name]
      : candidates.find((candidate) => candidate instanceof RegExp);
    if (format) ajv.addFormat(name, format);
  }
}

/** An Ajv for JSON Schema 2020-12 in strict mode that emits standalone ESM code; `allErrors` reports every failure. */
export function createAjv({ allErrors = false } = {}) {
  const ajv = new Ajv2020({
    strict: true,
    allErrors,
    allowUnionTypes: true, // Note: OpenAPI 3.1 writes nullable values as `type: [string, 'null']`.
    inlineRefs: false, // Note: every referenced schema becomes one shared function, so the exports do not repeat code.
    code: { esm: true, source: true, lines: true, formats: _`formats` },
  });
  ajv.addVocabulary(ANNOTATIONS);
  addFormats(ajv);
  return ajv;
}

/** A copy of a schema without descriptions, examples and x- extensions, in every subschema. */
export function withoutProse(schema) {
  const copy = structuredClone(schema);
  traverse(copy, {
    allKeys: true,
    cb: (node) => {
      for (const key of Object.keys(node))
        if (key === 'description' || key === 'examples' || key === 'example' || key.startsWith('x-')) delete node[key];
    },
  });
  return copy;
}

/**
 * A bundle whose component schemas are stripped of prose.
 * Note: Ajv's standalone code embeds some schemas whole (an enum's, for its errors); descriptions, examples and
 * x- extensions such as the lifecycle tables validate nothing and would only grow what the generated code ships.
 */
export function bundleWithoutProse(doc) {
  const copy = structuredClone(doc);
  for (const [name, schema] of Object.entries(copy.components?.schemas ?? {}))
    copy.components.schemas[name] = withoutProse(schema);
  return copy;
}

/**
 * Standalone ESM code of the exported validators, with Ajv's runtime helpers and the format functions inlined; each
 * export is typed as `typeName`, which the generated file declares.
 */
export function standaloneModule(ajv, exportsMap, typeName) {
  // Note: the standalone code `require`s Ajv's runtime helpers; inlining them leaves no dependency on Ajv at run time.
  const code = standaloneCode(ajv, exportsMap)
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', `(${ucs2length.toString()})`)
    .replace(/^"use strict";\n?/, '')
    .replace(/^export const (\w+) = (\w+);$/gm, `export const $1: ${typeName} = $2;`);
  const leftover = /require\("([^"]+)"\)/.exec(code);
  if (leftover)
    throw new Error(`the standalone code requires ${leftover[1]}, which this generator does not inline yet`);
  const used = (name) => code.includes(`formats.${name};`) || code.includes(`formats[${JSON.stringify(name)}];`);
  const functions = Object.entries(FORMAT_FUNCTIONS)
    .filter(([name]) => used(name))
    .map(([name, validate]) => `  ${JSON.stringify(name)}: { type: 'number', validate: ${validate} },`);
  return `const formats = {\n${functions.join('\n')}\n};\n${code.trimEnd()}\n`;
}

/**
 * The TypeScript declarations of a generated validator module: `${prefix}SchemaError`, the fields of Ajv's ErrorObject
 * that standalone code fills, and `${prefix}SchemaValidator`, the compiled function with the failures of its last call.
 */
export function validatorTypes(prefix = '') {
  return `/** One failure reported by a generated validator (the fields of Ajv's ErrorObject that it fills). */
export interface ${prefix}SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  propertyName?: string;
  message?: string;
}

/** A compiled JSON Schema validator; \`errors\` holds every failure of its last call. */
export interface ${prefix}SchemaValidator {
  (data: unknown): boolean;
  errors?: ${prefix}SchemaError[] | null;
}
`;
}
