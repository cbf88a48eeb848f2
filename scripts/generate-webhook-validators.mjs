// Compiles the webhook body schemas of the shared bundle into standalone Ajv validators, and copies the webhook's
// named examples and header names: packages/contract/generated/validators/webhook-validators.ts and webhook-examples.ts.
import path from 'node:path';
import { sharedBundle } from './lib/apis.mjs';
import { bundleWithoutProse, createAjv, standaloneModule, validatorTypes } from './lib/ajv-standalone.mjs';
import { replaceGeneratedDir } from './lib/generated-dir.mjs';
import { openBundle } from './lib/refs.mjs';
import { requireFile, root } from './lib/tools.mjs';

/** Where the validators are written. */
export const validatorsDir = 'packages/contract/generated/validators';

/** The component schema of each webhook layout's body. */
const ROOT_SCHEMAS = { later: 'WebhookEvent', earlier: 'EarlierWebhookEvent' };

/** The `$id` under which Ajv holds the bundle; its component schemas are compiled as `${SCHEMA_ID}#/components/schemas/…`. */
const SCHEMA_ID = 'urn:merchant-payments:shared';

const identifier = (name) => `validate${name.replace(/[^A-Za-z0-9_$]/g, '_')}`;
const schemaName = (ref) => ref.split('/').pop();

function compile(doc) {
  const ajv = createAjv();
  ajv.addSchema(bundleWithoutProse(doc), SCHEMA_ID);
  return ajv;
}

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
    const headers = (post.parameters ?? [])
      .filter((parameter) => parameter.in === 'header')
      .map((p) => ({
        name: p.name,
        required: p.required === true,
        ...(p.example !== undefined ? { example: p.example } : {}),
      }));
    const examples = Object.entries(media.examples ?? {})
      .sort(([a], [b]) => a.localeCompare(b))
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
  // Note: each event type's own validator, from WebhookEvent's branches and the const of each one's tag (sorted by type).
  const later = doc.components.schemas[ROOT_SCHEMAS.later];
  const tag = 'type';
  const mapping = (later.oneOf ?? [])
    .map(({ $ref }) => {
      const value = $ref && doc.components.schemas[schemaName($ref)]?.properties?.[tag]?.const;
      if (typeof value !== 'string')
        throw new Error(`${ROOT_SCHEMAS.later} in ${label}: branch ${$ref} has no const ${tag} of its own`);
      return [value, $ref];
    })
    .sort(([a], [b]) => a.localeCompare(b));
  if (mapping.length === 0) throw new Error(`${ROOT_SCHEMAS.later} in ${label} has no oneOf branches`);
  const ajv = compile(doc);
  const exportsMap = {
    validateWebhookEvent: `${SCHEMA_ID}#/components/schemas/${ROOT_SCHEMAS.later}`,
    validateEarlierWebhookEvent: `${SCHEMA_ID}#/components/schemas/${ROOT_SCHEMAS.earlier}`,
  };
  for (const [, ref] of mapping) exportsMap[identifier(schemaName(ref))] = `${SCHEMA_ID}${ref}`;

  const layouts = {};
  for (const [layout, schema] of Object.entries(ROOT_SCHEMAS)) {
    const found = webhookOf(dereferenced, schema, label);
    const validate = ajv.getSchema(
      exportsMap[layout === 'later' ? 'validateWebhookEvent' : 'validateEarlierWebhookEvent'],
    );
    for (const example of found.examples) {
      if (!validate(example.value))
        throw new Error(
          `example ${example.name} of ${found.webhook} breaks ${schema}: ${ajv.errorsText(validate.errors)}`,
        );
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
    validatorTypes('Webhook'),
    standaloneModule(ajv, exportsMap, 'WebhookSchemaValidator'),
    "/** The validator of each event type's own schema, keyed by the `type` value that selects it. */",
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

/** Clears packages/contract/generated/validators and writes the files rendered from the shared bundle. */
export async function generateWebhookValidators() {
  const written = replaceGeneratedDir(validatorsDir, await renderWebhookValidators());
  console.log(`generated ${written.join(', ')} from ${sharedBundle}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  generateWebhookValidators().catch((error) => {
    console.error(`generate-webhook-validators: ${error.message}`);
    process.exit(1);
  });
}
