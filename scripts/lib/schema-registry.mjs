// The schemas an operation index needs, each compiled once: a `$ref` to a component schema becomes that component's
// validator, and equal inline schemas (the same parameter in both variants) share one validator.
import { isDeepStrictEqual } from 'node:util';
import { withoutProse } from './ajv-standalone.mjs';

const COMPONENT_SCHEMA = /^#\/components\/schemas\/([^/]+)$/;

/** A JSON value with its object keys sorted, so that equal schemas serialise alike. */
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sorted(value[key])]),
  );
}

/** Identifier of a validator: `validate` and the name's letters, digits and underscores. */
export const validatorName = (name) => `validate${name.replace(/[^A-Za-z0-9_$]/g, '_')}`;

/**
 * Collects the schemas to compile into one Ajv that holds the shared bundle under `sharedId`. A schema is given as
 * the bundle writes it; its `#/components/schemas/…` references are read as the shared bundle's (the generator
 * checks that the bundle's component schemas are the shared ones).
 */
export class SchemaRegistry {
  #ajv;
  #sharedId;
  #byKey = new Map();
  /** Validator name → the schema id or reference Ajv compiles it from, for Ajv's standalone code. */
  exportsMap = {};

  constructor(ajv, sharedId) {
    this.#ajv = ajv;
    this.#sharedId = sharedId;
  }

  /** The name of the validator of `schema` (registering it on first sight); `hint` names a schema seen first here. */
  add(schema, hint) {
    const rewritten = this.#rewrite(withoutProse(schema));
    const component =
      Object.keys(rewritten).length === 1 && typeof schema.$ref === 'string'
        ? COMPONENT_SCHEMA.exec(schema.$ref)?.[1]
        : undefined;
    const key = JSON.stringify(sorted(rewritten));
    const known = this.#byKey.get(key);
    if (known) return known;
    const name = this.#unique(validatorName(component ?? hint));
    if (component) {
      this.exportsMap[name] = rewritten.$ref;
    } else {
      const id = `urn:merchant-payments:operations:${name}`;
      this.#ajv.addSchema(rewritten, id);
      this.exportsMap[name] = id;
    }
    this.#byKey.set(key, name);
    return name;
  }

  #unique(name) {
    if (!Object.hasOwn(this.exportsMap, name)) return name;
    for (let n = 2; ; n += 1) if (!Object.hasOwn(this.exportsMap, `${name}${n}`)) return `${name}${n}`;
  }

  #rewrite(node) {
    if (Array.isArray(node)) return node.map((item) => this.#rewrite(item));
    if (node === null || typeof node !== 'object') return node;
    const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, this.#rewrite(value)]));
    if (typeof node.$ref === 'string') {
      if (!COMPONENT_SCHEMA.test(node.$ref))
        throw new Error(`a schema refers to ${node.$ref}; only component schemas can be compiled`);
      copy.$ref = `${this.#sharedId}${node.$ref}`;
    }
    return copy;
  }
}

/** Throws unless every component schema of a bundle equals the shared bundle's (they are compiled from the latter). */
export function requireSharedSchemas(doc, shared, label) {
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    if (!isDeepStrictEqual(schema, shared.components?.schemas?.[name])) {
      throw new Error(`components.schemas.${name} of ${label} differs from the shared bundle's; run npm run bundle`);
    }
  }
}
