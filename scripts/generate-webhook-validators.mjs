// Compiles the webhook body schemas of the bundled spec into standalone Ajv validators, and copies the webhook's
// named examples and header names: generated/validators/webhook-validators.ts and webhook-examples.ts.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { fastFormats, fullFormats } from 'ajv-formats/dist/formats.js';
import { _ } from 'ajv';
import { parse } from 'yaml';
import { apis } from './lib/apis.mjs';
import { requireFile, root } from './lib/tools.mjs';
import { ROOT_SCHEMAS, SCHEMA_ID, webhookSpec } from './lib/webhook-schema.mjs';

// Note: required, not imported, so that Node and vitest see the same CommonJS export (the function is inlined as text).
const ucs2length = createRequire(import.meta.url)('ajv/dist/runtime/ucs2length').default;

/** Where the validators are written. */
export const validatorsDir = 'generated/validators';

/** The API whose bundle the validators are built from (the webhook is the same in every variant). */
export const validatorsApi = 'variant-a';

// Note: ajv-formats' numeric formats are functions; the generated module carries these copies as `formats`.
const FORMAT_FUNCTIONS = {
  int32: '(value) => Number.isInteger(value) && value <= 2147483647 && value >= -2147483648',
  int64: '(value) => Number.isInteger(value)',
  float: '() => true',
  double: '() => true',
};

const identifier = (name) => `validate${name.replace(/[^A-Za-z0-9_$]/g, '_')}`;

/**
 * The regular expression ajv-formats uses for a format: its full form when that is one, else its fast form.
 * Note: a pattern is inlined into the generated code, while a format function would pull all of ajv-formats into the
 * bundle; the fast date-time and uri forms check syntax only (a 31st of February passes).
 */
function formatPattern(name) {
  const candidates = [fullFormats[name], fastFormats[name], fastFormats[name]?.validate];
  const pattern = candidates.find((candidate) => candidate instanceof RegExp);
  if (!pattern) throw new Error(`format "${name}" has no regular-expression form in ajv-formats; extend formatPattern()`);
  return pattern;
}

function compile(document, formats) {
  const ajv = new Ajv2020({
    strict: true,
    allowUnionTypes: true, // Note: OpenAPI 3.1 writes nullable values as `type: [string, 'null']`.
    inlineRefs: false, // Note: every referenced schema becomes one shared function, so the exports do not repeat code.
    code: { esm: true, source: true, lines: true, formats: _`formats` },
  });
  for (const name of formats) ajv.addFormat(name, FORMAT_FUNCTIONS[name] ? fullFormats[name] : formatPattern(name));
  ajv.addSchema(document);
  return ajv;
}

/** Standalone ESM code of the exported validators, with Ajv's runtime helpers and the format functions inlined. */
function standalone(ajv, exportsMap, formats) {
  // Note: the standalone code `require`s Ajv's runtime helpers; inlining them leaves no dependency on Ajv at run time.
  const code = standaloneCode(ajv, exportsMap)
    .replaceAll('require("ajv/dist/runtime/ucs2length").default', `(${ucs2length.toString()})`)
    .replace(/^"use strict";\n?/, '')
    .replace(/^export const (\w+) = (\w+);$/gm, 'export const $1: WebhookSchemaValidator = $2;');
  const leftover = /require\("([^"]+)"\)/.exec(code);
  if (leftover) throw new Error(`the standalone code requires ${leftover[1]}, which this generator does not inline yet`);
  const functions = formats.filter((name) => FORMAT_FUNCTIONS[name])
    .map((name) => `  ${JSON.stringify(name)}: { type: 'number', validate: ${FORMAT_FUNCTIONS[name]} },`);
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

/** Renders the generated files from one bundled spec: `{ fileName: content }`; throws naming what is wrong. */
export function renderWebhookValidators(specFile, label = specFile) {
  requireFile(specFile, 'run npm run bundle first');
  const view = webhookSpec(parse(readFileSync(path.resolve(root, specFile), 'utf8')), label);
  const { document, formats } = view.document();
  const byType = view.eventSchemasByType();
  const ajv = compile(document, formats);
  const exportsMap = {
    validateWebhookEvent: `${SCHEMA_ID}#/$defs/${ROOT_SCHEMAS.later}`,
    validateEarlierWebhookEvent: `${SCHEMA_ID}#/$defs/${ROOT_SCHEMAS.earlier}`,
  };
  for (const name of Object.values(byType)) exportsMap[identifier(name)] = `${SCHEMA_ID}#/$defs/${name}`;

  const layouts = {};
  for (const [layout, schema] of Object.entries(ROOT_SCHEMAS)) {
    const found = view.webhookOf(schema);
    const validate = ajv.getSchema(exportsMap[layout === 'later' ? 'validateWebhookEvent' : 'validateEarlierWebhookEvent']);
    for (const example of found.examples) {
      if (!validate(example.value)) throw new Error(`example ${example.name} of ${found.webhook} breaks ${schema}: ${ajv.errorsText(validate.errors)}`);
    }
    layouts[layout] = found;
  }

  const source = `// Generated by scripts/generate-webhook-validators.mjs from ${label}. Do not edit: change the spec under openapi/ and run npm run regenerate.`;
  const typeMap = Object.entries(byType).map(([type, name]) => `  ${JSON.stringify(type)}: ${identifier(name)},`);
  const validators = [
    source,
    `// Schemas ${Object.values(ROOT_SCHEMAS).join(' and ')} and what they reference, compiled by Ajv (standalone, JSON Schema 2020-12).`,
    `// Formats, checked as ajv-formats does (fast form where the full one is a function): ${formats.join(', ') || 'none'}.`,
    '// Note: Ajv emits untyped JavaScript; the exports below carry the types, the rest is not type-checked.',
    '// @ts-nocheck',
    '',
    VALIDATOR_TYPES,
    standalone(ajv, exportsMap, formats),
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

/** Clears generated/validators and writes the files rendered from the bundle of validatorsApi. */
export function generateWebhookValidators() {
  const specFile = apis[validatorsApi]?.output;
  if (!specFile) throw new Error(`redocly.yaml lists no API ${validatorsApi}`);
  const files = renderWebhookValidators(specFile);
  const outDir = path.join(root, validatorsDir);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(outDir, name), content);
  console.log(`generated ${Object.keys(files).map((name) => `${validatorsDir}/${name}`).join(', ')} from ${specFile}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    generateWebhookValidators();
  } catch (error) {
    console.error(`generate-webhook-validators: ${error.message}`);
    process.exit(1);
  }
}
