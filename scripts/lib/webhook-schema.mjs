// Reads the webhook part of a bundled spec: its body schemas as one JSON Schema 2020-12 document, and its examples.

/** The component schema of each webhook layout's body. */
export const ROOT_SCHEMAS = { later: 'WebhookEvent', earlier: 'EarlierWebhookEvent' };

/** The `$id` of the JSON Schema document the validators are compiled from. */
export const SCHEMA_ID = 'urn:merchant-payments:webhook-events';

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;
// Keywords whose value is a map of schemas, a schema, or a list of schemas (JSON Schema 2020-12).
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_ONE = new Set(['additionalProperties', 'items', 'not', 'if', 'then', 'else', 'contains',
  'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'contentSchema']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
// Note: OpenAPI-only keywords Ajv does not know, and annotations that never change a result (they would only
// enlarge the generated code). The discriminator is dropped too: Ajv supports it only when every branch states the
// tag in its own `properties`, and these branches are built with allOf; oneOf over `const` tags decides the same.
const DROPPED = new Set(['example', 'externalDocs', 'xml', 'title', 'description', 'examples', '$comment',
  'deprecated', 'readOnly', 'writeOnly', 'default', 'discriminator']);

const unescapePointer = (segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');

/** The webhook view of one parsed bundled spec; every method throws an Error naming what is missing. */
export function webhookSpec(spec, label) {
  const schemas = spec?.components?.schemas ?? {};
  for (const name of Object.values(ROOT_SCHEMAS)) {
    if (!schemas[name]) throw new Error(`${label} has no components.schemas.${name}`);
  }

  const resolveLocal = (ref) => {
    if (!ref.startsWith('#/')) throw new Error(`only local references are supported, found ${ref} in ${label}`);
    let node = spec;
    for (const segment of ref.slice(2).split('/')) node = node?.[unescapePointer(segment)];
    if (node === undefined) throw new Error(`unresolved reference ${ref} in ${label}`);
    return node;
  };
  const deref = (node) => (node && typeof node.$ref === 'string' ? deref(resolveLocal(node.$ref)) : node);
  const schemaName = (ref) => {
    const match = SCHEMA_REF.exec(ref);
    const name = match && unescapePointer(match[1]);
    if (!name || !schemas[name]) throw new Error(`unsupported or unresolved schema reference ${ref} in ${label}`);
    return name;
  };

  /** Copies one OpenAPI schema as JSON Schema: `$defs` references, no vendor or OpenAPI-only keywords. */
  const convert = (schema, used, formats) => {
    if (typeof schema !== 'object' || schema === null) return schema;
    const out = {};
    for (const [key, value] of Object.entries(schema)) {
      if (key.startsWith('x-') || DROPPED.has(key)) continue;
      if (key === '$ref') {
        const name = schemaName(value);
        used.add(name);
        out.$ref = `#/$defs/${name}`;
      } else if (SCHEMA_MAPS.has(key)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(v, used, formats)]));
      } else if (SCHEMA_ONE.has(key)) {
        out[key] = convert(value, used, formats);
      } else if (SCHEMA_LIST.has(key)) {
        out[key] = value.map((v) => convert(v, used, formats));
      } else {
        if (key === 'format') formats.add(value);
        out[key] = value;
      }
    }
    return out;
  };

  return {
    /** One `$defs` document holding both layouts' schemas and all they reference, and the formats it uses. */
    document() {
      const defs = {};
      const formats = new Set();
      const pending = Object.values(ROOT_SCHEMAS);
      while (pending.length > 0) {
        const name = pending.pop();
        if (defs[name]) continue;
        const used = new Set();
        defs[name] = convert(schemas[name], used, formats);
        pending.push(...used);
      }
      const sorted = Object.fromEntries(Object.keys(defs).sort().map((name) => [name, defs[name]]));
      const document = { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: SCHEMA_ID, $defs: sorted };
      return { document, formats: [...formats].sort() };
    },

    /** Each event type of WebhookEvent's discriminator mapped to the schema it selects, sorted by type. */
    eventSchemasByType() {
      const root = schemas[ROOT_SCHEMAS.later];
      const branches = (root.oneOf ?? []).map((branch) => branch.$ref);
      const entries = Object.entries(root.discriminator?.mapping ?? {}).map(([type, ref]) => {
        if (!branches.includes(ref)) throw new Error(`discriminator mapping ${type} -> ${ref} is not a oneOf branch of WebhookEvent`);
        return [type, schemaName(ref)];
      });
      if (entries.length === 0) throw new Error(`${ROOT_SCHEMAS.later} in ${label} has no discriminator mapping`);
      return Object.fromEntries(entries.sort(([a], [b]) => a.localeCompare(b)));
    },

    /** The webhook whose JSON body is the given component schema: name, header parameters and named examples. */
    webhookOf(rootSchema) {
      const ref = `#/components/schemas/${rootSchema}`;
      for (const [name, item] of Object.entries(spec.webhooks ?? {})) {
        const operation = item?.post;
        const media = deref(operation?.requestBody)?.content?.['application/json'];
        if (media?.schema?.$ref !== ref) continue;
        const headers = (operation.parameters ?? []).map(deref).filter((parameter) => parameter?.in === 'header')
          .map((p) => ({ name: p.name, required: p.required === true, ...(p.example !== undefined ? { example: p.example } : {}) }));
        const examples = Object.entries(media.examples ?? {}).sort(([a], [b]) => a.localeCompare(b))
          .map(([exampleName, example]) => {
            const { summary, value } = deref(example);
            return { name: exampleName, ...(summary ? { summary } : {}), value };
          });
        if (examples.length === 0) throw new Error(`webhook ${name} in ${label} has no named request examples`);
        return { webhook: name, deprecated: operation.deprecated === true, headers, examples };
      }
      throw new Error(`no webhook in ${label} posts a body of ${ref}`);
    },
  };
}
