// fast-check arbitraries built from JSON Schemas: values that fit a schema, kept small, and ways to break one.
// Not a full JSON Schema generator: what the contract's request schemas use ($ref, allOf, oneOf/anyOf, enum, const,
// strings with pattern/length/format, bounded numbers, arrays, objects with required properties). Whatever it gets
// wrong is caught before sending: every request is classified valid or invalid by the package's own validator.
import fc from 'fast-check';
import type { Deref, Schema } from './schemas.js';

const MAX_DEPTH = 6;
const typeOf = (schema: Schema): string | undefined => {
  const type = schema.type;
  if (Array.isArray(type)) return type.find((candidate) => candidate !== 'null') as string | undefined;
  if (typeof type === 'string') return type;
  if (schema.properties !== undefined) return 'object';
  return undefined;
};
const num = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

function mergeAll(schema: Schema, deref: Deref): Schema {
  const parts = (schema.allOf as Schema[]).map((part) => expand(part, deref));
  const { allOf: _parts, ...own } = schema;
  return parts.reduce<Schema>(
    (merged, part) => ({
      ...merged,
      ...part,
      properties: { ...(merged.properties as Schema | undefined), ...(part.properties as Schema | undefined) },
      required: [
        ...((merged.required as string[] | undefined) ?? []),
        ...((part.required as string[] | undefined) ?? []),
      ],
    }),
    own,
  );
}

/** The schema with its $ref resolved and its allOf merged. */
export function expand(schema: Schema, deref: Deref): Schema {
  const resolved = deref(schema);
  return Array.isArray(resolved.allOf) ? mergeAll(resolved, deref) : resolved;
}

function stringArbitrary(schema: Schema): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.min(num(schema.maxLength) ?? 24, 64);
  const fits = (text: string) => text.length >= minLength && text.length <= (num(schema.maxLength) ?? Infinity);
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true })
      .map((date) => date.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  if (schema.format === 'email') return fc.emailAddress();
  if (typeof schema.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(schema.pattern, 'u'), { size: 'xsmall' }).filter(fits);
    } catch {
      // Note: a pattern fast-check cannot invert (look-arounds) falls back to the schema's examples.
      const examples = (schema.examples as unknown[] | undefined)?.filter(
        (example): example is string => typeof example === 'string',
      );
      if (examples?.length) return fc.constantFrom(...examples);
    }
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
}

function numberArbitrary(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const exclusiveMin = num(schema.exclusiveMinimum);
  const exclusiveMax = num(schema.exclusiveMaximum);
  let min = num(schema.minimum) ?? (exclusiveMin === undefined ? -1000 : exclusiveMin + (integer ? 1 : 1e-6));
  let max = num(schema.maximum) ?? (exclusiveMax === undefined ? 1000 : exclusiveMax - (integer ? 1 : 1e-6));
  // Note: huge bounds (int32 offsets) are kept but small values are favoured, so pages stay small.
  min = Math.max(min, -2_147_483_648);
  max = Math.min(max, 2_147_483_647);
  if (integer)
    return fc.oneof(
      { arbitrary: fc.integer({ min, max: Math.min(max, min + 100) }), weight: 3 },
      { arbitrary: fc.integer({ min, max }), weight: 1 },
    );
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectArbitrary(schema: Schema, deref: Deref, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys(properties).filter((name) => depth < MAX_DEPTH || required.has(name));
  if (names.length === 0 && schema.additionalProperties !== false && depth < MAX_DEPTH) {
    const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
    // Note: values follow additionalProperties when it is a schema (metadata takes strings only), so they stay valid.
    const extra = schema.additionalProperties;
    const value =
      typeof extra === 'object' && extra !== null
        ? arbitraryOf(extra as Schema, deref, depth + 1)
        : fc.oneof(fc.string({ maxLength: 16 }), fc.integer({ min: 0, max: 1000 }));
    return fc.dictionary(key, value, { maxKeys: 3 });
  }
  const record = Object.fromEntries(
    names.map((name) => [name, arbitraryOf(properties[name] as Schema, deref, depth + 1)]),
  );
  return fc.record(record, { requiredKeys: names.filter((name) => required.has(name)) });
}

/** Values that fit `schema` (as far as the keywords above go). */
export function arbitraryOf(raw: Schema, deref: Deref, depth = 0): fc.Arbitrary<unknown> {
  const schema = expand(raw, deref);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(alternatives)) {
    const { oneOf: _one, anyOf: _any, ...shared } = schema;
    return fc.oneof(
      ...alternatives.map((alternative) => arbitraryOf({ ...shared, ...expand(alternative, deref) }, deref, depth)),
    );
  }
  switch (typeOf(schema)) {
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const items = arbitraryOf((schema.items as Schema | undefined) ?? {}, deref, depth + 1);
      const minLength = num(schema.minItems) ?? 0;
      return fc.array(items, { minLength, maxLength: Math.max(minLength, Math.min(num(schema.maxItems) ?? 3, 3)) });
    }
    case 'object':
      return objectArbitrary(schema, deref, depth);
    default:
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
  }
}

/** A value of another JSON type than `schema` takes: what a "wrong type" mutation puts in its place. */
export function wrongTypeOf(schema: Schema): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not-a-number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return null;
  }
}

/** A value of the right type that breaks a bound or pattern of `schema`, if it has one. */
export function outOfRangeOf(schema: Schema): unknown {
  const type = typeOf(schema);
  if (Array.isArray(schema.enum)) return `${String(schema.enum[0])}-not-listed`;
  if ((type === 'integer' || type === 'number') && typeof schema.maximum === 'number') return schema.maximum + 1;
  if ((type === 'integer' || type === 'number') && typeof schema.minimum === 'number') return schema.minimum - 1;
  if (type === 'string' && typeof schema.maxLength === 'number') return 'x'.repeat(schema.maxLength + 1);
  if (type === 'string' && typeof schema.pattern === 'string') return ' \u0000 not matching ';
  return undefined;
}
