// Compiles every schema the operations of both variants and of the sandbox's control and admin APIs use (parameters,
// request bodies, response bodies and headers) into standalone Ajv validators, and writes the operation index a router
// and packages/contract/src/validation read: packages/contract/generated/operations/validators.ts, sandbox-validators.ts, admin-validators.ts,
// operations.ts and problems.ts (the problem catalogue). The index's types are packages/contract/src/validation/operation-index-types.ts.
import path from 'node:path';
import { apis, bundles, variants } from './lib/apis.mjs';
import { bundleWithoutProse, createAjv, standaloneModule, validatorTypes } from './lib/ajv-standalone.mjs';
import { compactJson } from './lib/compact-json.mjs';
import { replaceGeneratedDir } from './lib/generated-dir.mjs';
import { readOperations, readProblems } from './lib/operation-index.mjs';
import { openBundle } from './lib/refs.mjs';
import { SchemaRegistry, requireSharedSchemas } from './lib/schema-registry.mjs';
import { requireFile, root } from './lib/tools.mjs';

/** Where the validators and the index are written. */
export const operationsDir = 'packages/contract/generated/operations';

/** The `$id` under which Ajv holds the shared bundle, as generate-webhook-validators.mjs names it. */
const SCHEMA_ID = 'urn:merchant-payments:shared';

/**
 * The APIs of redocly.yaml that are not variants (the sandbox's control API, `sandbox`, and its admin API, `admin`):
 * each is compiled in an Ajv of its own into `<name>-validators.ts`, and indexed under its name.
 */
const OWN_APIS = Object.keys(apis).filter((name) => !variants.includes(name));

/** What an API that is not a variant is, in the generated comments (its name when not listed). */
const titleOf = (name) => ({ sandbox: "the sandbox's control API", admin: "the sandbox's admin API" })[name] ?? name;

/** The variant key of an API of redocly.yaml: `a` for `variant-a`. */
const variantKey = (name) => name.replace(/^variant-/, '');

/** Where the generated files import the index's types from (packages/contract/src/validation/operation-index-types.ts). */
const INDEX_TYPES = '../../src/validation/operation-index-types.js';
const INDEX_TYPE_NAMES = [
  'MediaSpec',
  'OperationSpec',
  'ParameterSpec',
  'ParameterType',
  'ProblemSpec',
  'ResponseSpec',
  'SecuritySchemeSpec',
  'VariantIndex',
];

/**
 * Reads the operations of every bundle (name → file; labels name them in messages) into an Ajv that holds each schema
 * they use once: `{ ajv, exportsMap, index, problems }`. Nothing is compiled until asked for.
 */
export async function compileOperationSchemas(files = bundles, labels = bundles) {
  for (const file of Object.values(files)) requireFile(file, 'run npm run bundle first');
  const shared = (await openBundle(path.resolve(root, files.shared))).doc;
  const ajv = createAjv({ allErrors: true });
  ajv.addSchema(bundleWithoutProse(shared), SCHEMA_ID);
  const registry = new SchemaRegistry(ajv, SCHEMA_ID);
  const index = {};
  let problems;
  for (const name of variants) {
    const bundle = await openBundle(path.resolve(root, files[name]));
    requireSharedSchemas(bundle.doc, shared, labels[name]);
    const found = readProblems(bundle, labels[name]);
    if (problems && JSON.stringify(problems) !== JSON.stringify(found))
      throw new Error(`${labels[name]} shows other problem codes than ${variants[0]}`);
    problems = found;
    index[variantKey(name)] = {
      source: labels[name],
      ...readOperations(bundle, (schema, hint) => registry.add(schema, hint), labels[name]),
    };
  }
  const own = {};
  for (const name of OWN_APIS) own[name] = await compileOwnSchemas(name, files, labels);
  return { ajv, exportsMap: registry.exportsMap, index, problems, own };
}

/**
 * The operations of an API that is not a variant (`sandbox`, `admin`) in an Ajv of their own: its bundle holds schemas
 * the variants do not (Fault, Tenant), so its `$ref`s are read as its own components. `{ ajv, exportsMap, index }`.
 */
async function compileOwnSchemas(name, files, labels) {
  const bundle = await openBundle(path.resolve(root, files[name]));
  const id = `urn:merchant-payments:${name}`;
  const ajv = createAjv({ allErrors: true });
  // Note: OpenAPI's `password` (WebhookSecret, the admin API's issued secrets) only tells a UI to mask the value; it
  // constrains nothing.
  ajv.addFormat('password', true);
  ajv.addSchema(bundleWithoutProse(bundle.doc), id);
  const registry = new SchemaRegistry(ajv, id);
  const index = {
    source: labels[name],
    ...readOperations(bundle, (schema, hint) => `${moduleAlias(name)}:${registry.add(schema, hint)}`, labels[name]),
  };
  return { ajv, exportsMap: registry.exportsMap, index };
}

/** The name operations.ts imports `<name>-validators.ts` as: the API's name in camelCase (`sandbox`, `admin`). */
const moduleAlias = (name) => name.replace(/-(\w)/g, (_, letter) => letter.toUpperCase());

/** Renders the generated files from the bundles (name → file; labels name them in the headers): `{ fileName: content }`. */
export async function renderOperationValidators(files = bundles, labels = bundles) {
  const { ajv, exportsMap, index, problems, own } = await compileOperationSchemas(files, labels);
  const sources = [...variants, ...OWN_APIS].map((name) => labels[name]).join(', ');
  const header = `// Generated by scripts/generate-operation-validators.mjs from ${sources} (schemas from ${labels.shared}). Do not edit: change the spec under openapi/ and run npm run regenerate.`;
  const validators = [
    header,
    '// Every schema the operations use, compiled once by Ajv (standalone, JSON Schema 2020-12, all errors reported).',
    '// Formats are checked as ajv-formats does (the fast form where the full one is a function).',
    '// Note: Ajv emits untyped JavaScript; the exports below carry the types, the rest is not type-checked.',
    '// @ts-nocheck',
    '',
    validatorTypes(),
    standaloneModule(ajv, exportsMap, 'SchemaValidator'),
  ].join('\n');
  const ownValidators = Object.fromEntries(
    OWN_APIS.map((name) => [
      `${name}-validators.ts`,
      [
        header,
        `// The schemas of ${titleOf(name)}, compiled as validators.ts compiles the variants'.`,
        '// @ts-nocheck',
        '',
        "import type { SchemaValidator } from './validators.js';",
        '',
        standaloneModule(own[name].ajv, own[name].exportsMap, 'SchemaValidator'),
      ].join('\n'),
    ]),
  );
  // Note: validators are written as names (`<module>:` for the module of an API that is not a variant), then turned
  // into references to them.
  const data = (value) =>
    compactJson(value, 130).replace(
      /"validator": ?"(?:(\w+):)?(validate\w+)"/g,
      (_, module, name) => `"validator": ${module ?? 'v'}.${name}`,
    );
  const operations = [
    header,
    ...OWN_APIS.map((name) => `import * as ${moduleAlias(name)} from './${name}-validators.js';`),
    "import * as v from './validators.js';",
    `import type { VariantIndex } from '${INDEX_TYPES}';`,
    '',
    `export type { ${INDEX_TYPE_NAMES.join(', ')} } from '${INDEX_TYPES}';`,
    "export { problemCatalogue, type ProblemCode } from './problems.js';",
    '',
    `/** The variants by key (\`a\` for ${variants[0]}). */`,
    `export type Variant = ${Object.keys(index)
      .map((key) => `'${key}'`)
      .join(' | ')};`,
    '',
    `/** Every API the index holds: the variants, ${OWN_APIS.map((name) => `\`${name}\` (${titleOf(name)})`).join(' and ')}. */`,
    `export type Api = Variant | ${OWN_APIS.map((name) => `'${name}'`).join(' | ')};`,
    '',
    "/** Each API's operations, in the order of its `paths`, and the responses they name. */",
    `export const operationIndex: Readonly<Record<Api, VariantIndex>> = ${data({ ...index, ...Object.fromEntries(OWN_APIS.map((name) => [name, own[name].index])) })};`,
    '',
  ].join('\n');
  // Note: a module of its own, with no validators in it, so that building a problem body (packages/contract/src/shared/problem.ts, the
  // webhook receivers included) loads no more than the catalogue.
  const problemModule = [
    header,
    `import type { ProblemSpec } from '${INDEX_TYPES}';`,
    '',
    "/** A problem `code` the contract's error responses show, e.g. `idempotency_key_reused`. */",
    `export type ProblemCode = ${
      Object.keys(problems)
        .map((code) => JSON.stringify(code))
        .join(' | ') || 'never'
    };`,
    '',
    "/** The problem `code`s the contract's error responses show, with their status, title and type URI. */",
    `export const problemCatalogue: Readonly<Record<ProblemCode, ProblemSpec>> & Readonly<Record<string, ProblemSpec>> = ${data(problems)};`,
    '',
  ].join('\n');
  return { 'validators.ts': validators, ...ownValidators, 'operations.ts': operations, 'problems.ts': problemModule };
}

/** Clears packages/contract/generated/operations and writes the files rendered from the bundles. */
export async function generateOperationValidators() {
  const written = replaceGeneratedDir(operationsDir, await renderOperationValidators());
  console.log(`generated ${written.join(', ')}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  generateOperationValidators().catch((error) => {
    console.error(`generate-operation-validators: ${error.message}`);
    process.exit(1);
  });
}
