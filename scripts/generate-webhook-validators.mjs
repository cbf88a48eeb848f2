#!/usr/bin/env node
// Writes standalone webhook body validators and the contract's named webhook examples from the bundled spec.
//
//   node scripts/generate-webhook-validators.mjs [--spec generated/openapi/variant-a.yaml]
//                                                [--out generated/validators] [--check]
//
// Output (all generated, never edited by hand):
//   webhook-validators.js    Ajv standalone ESM code: validateWebhookEvent, validateEarlierWebhookEvent,
//                            webhookEventValidators (one per event type, for precise error reports)
//   webhook-validators.d.ts  its types
//   webhook-examples.js      the named request examples and header names of both webhook layouts (+ .d.ts)
// With --check nothing is written; the exit code is 1 when a file on disk differs from what would be written.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import ucs2length from 'ajv/dist/runtime/ucs2length.js';
import { fastFormats, fullFormats } from 'ajv-formats/dist/formats.js';
import { _ } from 'ajv';
import { parse } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROOT_SCHEMAS = { later: 'WebhookEvent', earlier: 'EarlierWebhookEvent' };
const SCHEMA_ID = 'urn:merchant-payments:webhook-events';
const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

// Keywords whose value is a map of schemas, a schema, or a list of schemas (JSON Schema 2020-12).
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_ONE = new Set(['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains',
  'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'contentSchema']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
// Dropped: OpenAPI-only keywords Ajv does not know, and annotations that never change a validation result
// (keeping them would only enlarge the generated code).
const DROPPED = new Set(['example', 'externalDocs', 'xml', 'title', 'description', 'examples', '$comment',
  'deprecated', 'readOnly', 'writeOnly', 'default']);

const { values: args } = parseArgs({
  options: {
    spec: { type: 'string', default: 'generated/openapi/variant-a.yaml' },
    out: { type: 'string', default: 'generated/validators' },
    check: { type: 'boolean', default: false },
  },
});

const fail = (message) => {
  console.error(`generate-webhook-validators: ${message}`);
  process.exit(1);
};

const specPath = resolve(process.cwd(), args.spec);
const inRepo = relative(ROOT, specPath).split('\\').join('/');
const specLabel = inRepo.startsWith('..') ? args.spec : inRepo;
let specText;
try {
  specText = await readFile(specPath, 'utf8');
} catch {
  fail(`cannot read the bundled spec ${specPath}; run \`npm run bundle\` first or pass --spec <file>`);
}
const spec = parse(specText);
const schemas = spec?.components?.schemas ?? {};
for (const name of Object.values(ROOT_SCHEMAS)) {
  if (!schemas[name]) fail(`${specLabel} has no components.schemas.${name}`);
}

/** Decodes one JSON pointer segment. */
const unescapePointer = (segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');

/** Resolves a local `#/…` reference inside the spec. */
function resolveLocal(ref) {
  if (!ref.startsWith('#/')) fail(`only local references are supported, found ${ref}`);
  let node = spec;
  for (const segment of ref.slice(2).split('/')) node = node?.[unescapePointer(segment)];
  if (node === undefined) fail(`unresolved reference ${ref}`);
  return node;
}

/** Follows `$ref` until a non-reference object (parameters, examples). */
const deref = (node) => (node && typeof node.$ref === 'string' ? deref(resolveLocal(node.$ref)) : node);

const usedFormats = new Set();

/** Copies one OpenAPI schema as JSON Schema 2020-12: `$defs` refs, no vendor or OpenAPI-only keys. */
function convert(schema, used, keepDiscriminator) {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (Array.isArray(schema)) fail('a schema must be an object or a boolean, found an array');
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-') || DROPPED.has(key)) continue;
    if (key === '$ref') {
      const match = SCHEMA_REF.exec(value);
      if (!match) fail(`unsupported schema reference ${value}; expected #/components/schemas/<Name>`);
      const name = unescapePointer(match[1]);
      if (!schemas[name]) fail(`unresolved reference ${value}`);
      used.add(name);
      out.$ref = `#/$defs/${name}`;
    } else if (key === 'discriminator') {
      // Note: Ajv implements propertyName only; the mapping must agree with the oneOf branches, and is checked below.
      if (!keepDiscriminator) continue;
      out.discriminator = { propertyName: value.propertyName };
      out.type ??= 'object'; // Note: Ajv's strict mode wants the discriminator's type stated; every branch is an object anyway.
    } else if (SCHEMA_MAPS.has(key)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, used, keepDiscriminator)]));
    } else if (SCHEMA_ONE.has(key)) {
      out[key] = convert(value, used, keepDiscriminator);
    } else if (SCHEMA_LIST.has(key)) {
      out[key] = value.map((v) => convert(v, used, keepDiscriminator));
    } else {
      if (key === 'format') usedFormats.add(value);
      out[key] = value;
    }
  }
  return out;
}

/** Builds one `$defs` document holding the root schemas and everything they reference, sorted by name. */
function buildDocument(keepDiscriminator) {
  const defs = {};
  const pending = Object.values(ROOT_SCHEMAS);
  while (pending.length > 0) {
    const name = pending.pop();
    if (defs[name]) continue;
    const used = new Set();
    defs[name] = convert(schemas[name], used, keepDiscriminator);
    pending.push(...used);
  }
  const sorted = Object.fromEntries(Object.keys(defs).sort().map((name) => [name, defs[name]]));
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: SCHEMA_ID, $defs: sorted };
}

/** The event types of WebhookEvent's discriminator mapped to the schema that each selects. */
function eventSchemasByType() {
  const discriminator = schemas[ROOT_SCHEMAS.later].discriminator;
  const branches = (schemas[ROOT_SCHEMAS.later].oneOf ?? []).map((branch) => branch.$ref);
  const byType = {};
  for (const [type, ref] of Object.entries(discriminator?.mapping ?? {})) {
    const match = SCHEMA_REF.exec(ref);
    if (!match || !branches.includes(ref)) fail(`discriminator mapping ${type} -> ${ref} is not one of WebhookEvent's oneOf branches`);
    byType[type] = unescapePointer(match[1]);
  }
  return Object.fromEntries(Object.keys(byType).sort().map((type) => [type, byType[type]]));
}

const identifier = (name) => `validate${name.replace(/[^A-Za-z0-9_$]/g, '_')}`;

/** Compiles the document with Ajv (throws when the discriminator keyword is unusable). */
function compile(document, discriminator) {
  const ajv = new Ajv2020({
    strict: true,
    allowUnionTypes: true, // Note: OpenAPI 3.1 writes nullable values as `type: [string, 'null']`.
    discriminator,
    inlineRefs: false, // Note: every referenced schema becomes one shared function, so the exports do not repeat code.
    code: { esm: true, source: true, lines: true, formats: _`formats` },
  });
  for (const name of [...usedFormats].sort()) ajv.addFormat(name, FORMAT_FUNCTIONS[name] ? fullFormats[name] : formatPattern(name));
  ajv.addSchema(document);
  return ajv;
}

// ajv-formats' numeric formats are functions; the generated module carries these copies of them as `formats`.
const FORMAT_FUNCTIONS = {
  int32: '(value) => Number.isInteger(value) && value <= 2147483647 && value >= -2147483648',
  int64: '(value) => Number.isInteger(value)',
  float: '() => true',
  double: '() => true',
};

/**
 * The regular expression ajv-formats uses for a format: its full form when that is one, else its fast form.
 * Note: a pattern is inlined into the generated code, while a format function would pull all of ajv-formats into the
 * bundle; the fast date-time and uri forms check syntax only (a 31st of February passes).
 */
function formatPattern(name) {
  const candidates = [fullFormats[name], fastFormats[name], fastFormats[name]?.validate];
  const pattern = candidates.find((candidate) => candidate instanceof RegExp);
  if (!pattern) fail(`format "${name}" has no regular-expression form in ajv-formats; extend formatPattern()`);
  return pattern;
}

const byType = eventSchemasByType();
let discriminator = Object.keys(byType).length > 0;
let ajv;
try {
  ajv = compile(buildDocument(discriminator), discriminator);
  ajv.getSchema(`${SCHEMA_ID}#/$defs/${ROOT_SCHEMAS.later}`);
} catch (error) {
  if (!discriminator || !/discriminator/.test(String(error?.message))) throw error;
  // Note: Ajv's discriminator needs `properties/<tag>` directly in each branch; branches built with allOf
  // do not have it, so the keyword is dropped and plain oneOf decides (per-type validators keep errors precise).
  console.error(`generate-webhook-validators: discriminator not usable by Ajv (${error.message}); validating with oneOf alone`);
  discriminator = false;
  ajv = compile(buildDocument(false), false);
}

const exportsMap = {
  validateWebhookEvent: `${SCHEMA_ID}#/$defs/${ROOT_SCHEMAS.later}`,
  validateEarlierWebhookEvent: `${SCHEMA_ID}#/$defs/${ROOT_SCHEMAS.earlier}`,
};
for (const name of Object.values(byType)) exportsMap[identifier(name)] = `${SCHEMA_ID}#/$defs/${name}`;
for (const ref of Object.values(exportsMap)) ajv.getSchema(ref);

// Note: the standalone code `require`s Ajv's runtime helpers; they are inlined so the module is plain ESM with no
// dependency on Ajv at run time.
let code = standaloneCode(ajv, exportsMap).replaceAll(
  'require("ajv/dist/runtime/ucs2length").default',
  `(${ucs2length.default.toString()})`,
);
const leftover = /require\("([^"]+)"\)/.exec(code);
if (leftover) fail(`the standalone code requires ${leftover[1]}, which this generator does not inline yet`);
const formatFunctions = [...usedFormats].sort().filter((name) => FORMAT_FUNCTIONS[name])
  .map((name) => `  ${JSON.stringify(name)}: { type: "number", validate: ${FORMAT_FUNCTIONS[name]} },`);
code = code.replace(/^"use strict";\n?/, formatFunctions.length > 0 ? `const formats = {\n${formatFunctions.join('\n')}\n};\n` : '');
const typeMap = Object.entries(byType).map(([type, name]) => `  ${JSON.stringify(type)}: ${identifier(name)},`);
const header = [
  `// Generated by scripts/generate-webhook-validators.mjs from ${specLabel}. Do not edit; regenerate.`,
  `// Schemas: ${Object.values(ROOT_SCHEMAS).join(', ')} and what they reference; discriminator keyword ${discriminator ? 'used' : 'not used'}.`,
  `// Formats, checked as ajv-formats does (fast form where the full one is a function): ${[...usedFormats].sort().join(', ') || 'none'}.`,
].join('\n');
const js = `${header}\n${code.trimEnd()}\n\nexport const webhookEventValidators = Object.freeze({\n${typeMap.join('\n')}\n});\n`;

const dts = `${header}

/** One failure reported by a generated validator (the fields of Ajv's ErrorObject that it fills). */
export interface WebhookSchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A compiled JSON Schema validator; \`errors\` holds the failures of the last call. */
export interface WebhookSchemaValidator {
  (data: unknown): boolean;
  errors?: WebhookSchemaError[] | null;
}

/** Validates a later-layout body against components.schemas.${ROOT_SCHEMAS.later}. */
export declare const validateWebhookEvent: WebhookSchemaValidator;
/** Validates an earlier-layout body against components.schemas.${ROOT_SCHEMAS.earlier}. */
export declare const validateEarlierWebhookEvent: WebhookSchemaValidator;
${Object.values(byType).map((name) => `/** Validates against components.schemas.${name}. */\nexport declare const ${identifier(name)}: WebhookSchemaValidator;`).join('\n')}
/** The validator of each event type's own schema, keyed by the \`type\` value that selects it. */
export declare const webhookEventValidators: Readonly<Record<string, WebhookSchemaValidator>>;
`;

/** Finds the webhook whose JSON request body is the given component schema. */
function findWebhook(schemaName) {
  const ref = `#/components/schemas/${schemaName}`;
  for (const [name, item] of Object.entries(spec.webhooks ?? {})) {
    const operation = item?.post;
    const media = deref(operation?.requestBody)?.content?.['application/json'];
    if (media?.schema?.$ref === ref) return { name, operation, media };
  }
  return fail(`no webhook in ${specLabel} posts a body of ${ref}`);
}

/** The header names and named examples of one layout, checked against the compiled validator. */
function layout(schemaName) {
  const { name, operation, media } = findWebhook(schemaName);
  const validate = ajv.getSchema(`${SCHEMA_ID}#/$defs/${schemaName}`);
  const headers = (operation.parameters ?? []).map(deref).filter((p) => p?.in === 'header')
    .map((p) => ({ name: p.name, required: p.required === true, ...(p.example !== undefined ? { example: p.example } : {}) }));
  const examples = Object.entries(media.examples ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([exampleName, ref]) => {
    const example = deref(ref);
    if (!validate(example.value)) {
      fail(`example ${exampleName} of ${name} breaks ${schemaName}: ${ajv.errorsText(validate.errors)}`);
    }
    return { name: exampleName, ...(example.summary ? { summary: example.summary } : {}), value: example.value };
  });
  if (examples.length === 0) fail(`webhook ${name} has no named request examples`);
  return { webhook: name, deprecated: operation.deprecated === true, headers, examples };
}

const examples = { source: specLabel, layouts: { later: layout(ROOT_SCHEMAS.later), earlier: layout(ROOT_SCHEMAS.earlier) } };
// Note: the examples are an ES module rather than a .json file, because importing JSON needs import attributes,
// which Node 20 still flags as experimental and not every bundler or edge runtime accepts.
const examplesJs = `${header.split('\n')[0]}\nexport const webhookExamples = ${JSON.stringify(examples, null, 2)};\n`;
const examplesDts = `${header.split('\n')[0]}

/** One named request example of a webhook in the contract. */
export interface WebhookExample {
  name: string;
  summary?: string;
  value: { id: string; type: string; created_at: string; data: Record<string, unknown> };
}

/** A header parameter of a webhook in the contract. */
export interface WebhookHeaderParameter {
  name: string;
  required: boolean;
  example?: unknown;
}

/** What the contract says about one layout of the webhook. */
export interface WebhookLayoutExamples {
  webhook: string;
  deprecated: boolean;
  headers: WebhookHeaderParameter[];
  examples: WebhookExample[];
}

/** The named request examples and header parameters of both webhook layouts. */
export declare const webhookExamples: {
  source: string;
  layouts: { later: WebhookLayoutExamples; earlier: WebhookLayoutExamples };
};
`;
const files = {
  'webhook-validators.js': js,
  'webhook-validators.d.ts': dts,
  'webhook-examples.js': examplesJs,
  'webhook-examples.d.ts': examplesDts,
};

const outDir = resolve(process.cwd(), args.out);
if (args.check) {
  const stale = [];
  for (const [file, content] of Object.entries(files)) {
    const current = await readFile(join(outDir, file), 'utf8').catch(() => undefined);
    if (current !== content) stale.push(file);
  }
  if (stale.length > 0) fail(`out of date in ${args.out}: ${stale.join(', ')}; run the generator and commit the result`);
  console.log(`generate-webhook-validators: ${args.out} is up to date`);
} else {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  for (const [file, content] of Object.entries(files)) await writeFile(join(outDir, file), content);
  console.log(`generate-webhook-validators: wrote ${Object.keys(files).join(', ')} to ${args.out} from ${specLabel}`);
}
