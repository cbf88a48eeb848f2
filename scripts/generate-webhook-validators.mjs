// Compiles the webhook body schemas of the shared bundle into standalone Ajv validators, and copies the webhook's
// named examples and header names: generated/validators/webhook-validators.ts and webhook-examples.ts.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { fastFormats, fullFormats } from 'ajv-formats/dist/formats.js';
import { _ } from 'ajv';
import { sharedBundle } from './lib/apis.mjs';
import traverse from 'json-schema-traverse';
import { openBundle } from './lib/refs.mjs';
import { requireFile, root } from './lib/tools.mjs';

// Note: required, not imported, so that Node and vitest see the same CommonJS export (the function is inlined as text).
const ucs2length = createRequire(import.meta.url)('ajv/dist/runtime/ucs2length').default;

/** Where the validators are written. */
export const validatorsDir = 'generated/validators';

/** The component schema of each webhook layout's body. */
const ROOT_SCHEMAS = { later: 'WebhookEvent', earlier: 'EarlierWebhookEvent' };

/** The `$id` under which Ajv holds the bundle; its component schemas are compiled as `${SCHEMA_ID}#/components/schemas/…`. */
const SCHEMA_ID = 'urn:merchant-payments:shared';

/**
 * Keywords Ajv is to read as annotations: the OpenAPI Object's fields (Ajv compiles the whole bundle as the root of
 * every `$ref`), OpenAPI's own schema keywords, and the contract's extensions (openapi/README.md). Any other keyword
 * Ajv does not know is an error (strict mode).
 * Note: Ajv's own `discriminator` support needs the tag in each branch's `properties`, and these branches are built
 * with allOf; the oneOf over `const` tags decides the same.
 */
const ANNOTATIONS = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags',
  'externalDocs', 'discriminator', 'xml', 'example', 'x-provenance', 'x-assumed'];

// Note: ajv-formats' numeric formats are functions; the generated module carries these copies as `formats`.
const FORMAT_FUNCTIONS = {
  int32: '(value) => Number.isInteger(value) && value <= 2147483647 && value >= -2147483648',
  int64: '(value) => Number.isInteger(value)',
  float: '() => true',
  double: '() => true',
};

const identifier = (name) => `validate${name.replace(/[^A-Za-z0-9_$]/g, '_')}`;
const schemaName = (ref) => ref.split('/').pop();

/**
 * Each format of ajv-formats as the generated code checks it: the copies above, else the full form when it is a
 * regular expression, else the fast form; formats with neither stay unknown, and Ajv refuses a schema that uses one.
 * Note: a pattern is inlined into the generated code, while a format function would pull all of ajv-formats into the
 * bundle; the fast date-time and uri forms check syntax only (a 31st of February passes).
 */
function addFormats(ajv) {
  for (const name of Object.keys(fullFormats)) {
    const candidates = [fullFormats[name], fastFormats[name], fastFormats[name]?.validate];
    const format = FORMAT_FUNCTIONS[name] ? fullFormats[name] : candidates.find((candidate) => candidate instanceof RegExp);
    if (format) ajv.addFormat(name, format);
  }
}

function compile(doc) {
  const ajv = new Ajv2020({
    strict: true,
    allowUnionTypes: true, // Note: OpenAPI 3.1 writes nullable values as `type: [string, 'null']`.
    inlineRefs: false, // Note: every referenced schema becomes one shared function, so the exports do not repeat code.
    code: { esm: true, source: true, lines: true, formats: _`formats` },
  });
  ajv.addVocabulary(ANNOTATIONS);
  addFormats(ajv);
  ajv.addSchema(withoutProse(doc), SCHEMA_ID);
  return ajv;
}

// Note: Ajv's standalone code embeds some schemas whole (an enum's, for its errors); descriptions, examples and
// x- extensions such as the lifecycle tables validate nothing and would only grow what verifyWebhook ships.
function withoutProse(doc) {
  const copy = structuredClone(doc);
  for (const schema of Object.values(copy.components?.schemas ?? {})) {
    traverse(schema, { allKeys: true, cb: (node) => {
      for (const key of Object.keys(node)) if (key === 'description' || key === 'examples' || key === 'example' || key.startsWith('x-')) delete node[key];
    } });
  }
  return copy;
}

/** Standalone ESM code of the exported validators, with Ajv's runtime helpers and the format functions inlined. */
function standalone(ajv, exportsMap) {
  // Note: the standalone code `require`s Ajv's runtime helpers; inlining them leaves no dependency on Ajv at run time.
  const code = standaloneCode(ajv, exportsMap)
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', `(${ucs2length.toString()})`)
    .replace(/^"use strict";\n?/, '')
    .replace(/^export const (\w+) = (\w+);$/gm, 'export const $1: WebhookSchemaValidator = $2;');
  const leftover = /require\("([^"]+)"\)/.exec(code);
  if (leftover) throw new Error(`the standalone code requires ${leftover[1]}, which this generator does not inline yet`);
  const used = (name) => code.includes(`formats.${name};`) || code.includes(`formats[${JSON.stringify(name)}];`);
  const functions = Object.entries(FORMAT_FUNCTIONS).filter(([name]) => used(name))
    .map(([name, validate]) => `  ${JSON.stringify(name)}: { type: 'number', validate: ${validate} },`);
  return `const formats = {\n${functions.join('\n')}\n};\n${code.trimEnd()}\n`;
}

const VALIDATOR_TYPES = `/** One failure reported by a generated validator (the fields of Ajv's ErrorObject that it fills). */
export interface WebhookSchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A compiled JSON Schema validator; \`errors\` holds the failures of its last call. */
export interface WebhookSchemaValidator {
  (data: unknown): boolean;
  errors?: WebhookSchemaError[] | null;
}
`;

const EXAMPLE_TYPES = `/** One named request example of a webhook in the contract. */
export interface WebhookExample {
  name: string;
  summary?: string;
  value: { id: string; type: string; created_at: string; data: Record<string, unknown> };
}

/** What the contract says about one layout of the webhook: its name, header parameters and named examples. */
export interface WebhookLayoutExamples {
  webhook: string;
  deprecated: boolean;
  headers: { name: string; required: boolean; example?: unknown }[];
  examples: WebhookExample[];
}
`;

/** The webhook whose JSON body is the given component schema: its name, header parameters and named examples. */
function webhookOf(dereferenced, component, label) {
  const schema = dereferenced.components.schemas[component];
  for (const [name, { post }] of Object.entries(dereferenced.webhooks ?? {})) {
    const media = post?.requestBody?.content?.['application/json'];
    if (media?.schema !== schema) continue;
    const headers = (post.parameters ?? []).filter((parameter) => parameter.in === 'header')
      .map((p) => ({ name: p.name, required: p.required === true, ...(p.example !== undefined ? { example: p.example } : {}) }));
    const examples = Object.entries(media.examples ?? {}).sort(([a], [b]) => a.localeCompare(b))
      .map(([exampleName, { summary, value }]) => ({ name: exampleName, ...(summary ? { summary } : {}), value }));
    if (examples.length === 0) throw new Error(`webhook ${name} in ${label} has no named request examples`);
    return { webhook: name, deprecated: post.deprecated === true, headers, examples };
  }
  throw new Error(`no webhook in ${label} posts a body of ${component}`);
}

/** Renders the generated files from the shared bundle: `{ fileName: content }`; throws naming what is wrong. */
export async function renderWebhookValidators(specFile = sharedBundle, label = specFile) {
  requireFile(specFile, 'run npm run bundle first');
  const { doc, dereferenced } = await openBundle(path.resolve(root, specFile));
  for (const name of Object.values(ROOT_SCHEMAS)) {
    if (!doc.components?.schemas?.[name]) throw new Error(`${label} has no components.schemas.${name}`);
  }
  // Note: each event type's own validator, from WebhookEvent's discriminator mapping (sorted by type).
  const mapping = Object.entries(doc.components.schemas[ROOT_SCHEMAS.later].discriminator?.mapping ?? {}).sort(([a], [b]) => a.localeCompare(b));
  if (mapping.length === 0) throw new Error(`${ROOT_SCHEMAS.later} in ${label} has no discriminator mapping`);
  const ajv = compile(doc);
  const exportsMap = {
    validateWebhookEvent: `${SCHEMA_ID}#/components/schemas/${ROOT_SCHEMAS.later}`,
    validateEarlierWebhookEvent: `${SCHEMA_ID}#/components/schemas/${ROOT_SCHEMAS.earlier}`,
  };
  for (const [, ref] of mapping) exportsMap[identifier(schemaName(ref))] = `${SCHEMA_ID}${ref}`;

  const layouts = {};
  for (const [layout, schema] of Object.entries(ROOT_SCHEMAS)) {
    const found = webhookOf(dereferenced, schema, label);
    const validate = ajv.getSchema(exportsMap[layout === 'later' ? 'validateWebhookEvent' : 'validateEarlierWebhookEvent']);
    for (const example of found.examples) {
      if (!validate(example.value)) throw new Error(`example ${example.name} of ${found.webhook} breaks ${schema}: ${ajv.errorsText(validate.errors)}`);
    }
    layouts[layout] = found;
  }

  const source = `// Generated by scripts/generate-webhook-validators.mjs from ${label}. Do not edit: change the spec under openapi/ and run npm run regenerate.`;
  const typeMap = mapping.map(([type, ref]) => `  ${JSON.stringify(type)}: ${identifier(schemaName(ref))},`);
  const validators = [
    source,
    `// Schemas ${Object.values(ROOT_SCHEMAS).join(' and ')} and what they reference, compiled by Ajv (standalone, JSON Schema 2020-12).`,
    '// Formats are checked as ajv-formats does (the fast form where the full one is a function).',
    '// Note: Ajv emits untyped JavaScript; the exports below carry the types, the rest is not type-checked.',
    '// @ts-nocheck',
    '',
    VALIDATOR_TYPES,
    standalone(ajv, exportsMap),
    '/** The validator of each event type\'s own schema, keyed by the `type` value that selects it. */',
    `export const webhookEventValidators: Readonly<Record<string, WebhookSchemaValidator>> = Object.freeze({\n${typeMap.join('\n')}\n});\n`,
  ].join('\n');
  const examples = [
    source,
    '',
    EXAMPLE_TYPES,
    '/** The named request examples and header parameters of both webhook layouts. */',
    `export const webhookExamples: { source: string; layouts: Record<'later' | 'earlier', WebhookLayoutExamples> } = ${JSON.stringify({ source: label, layouts }, null, 2)};\n`,
  ].join('\n');
  return { 'webhook-validators.ts': validators, 'webhook-examples.ts': examples };
}

/** Clears generated/validators and writes the files rendered from the shared bundle. */
export async function generateWebhookValidators() {
  const files = await renderWebhookValidators();
  const outDir = path.join(root, validatorsDir);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(outDir, name), content);
  console.log(`generated ${Object.keys(files).map((name) => `${validatorsDir}/${name}`).join(', ')} from ${sharedBundle}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  generateWebhookValidators().catch((error) => {
    console.error(`generate-webhook-validators: ${error.message}`);
    process.exit(1);
  });
}
