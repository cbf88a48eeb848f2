// The JSON Schemas of each operation's parameters and request body, read from the bundled spec that ships with the
// package: the generated operation index holds compiled validators only, and requests are generated from schemas.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { OperationSpec, Variant } from '@merchant-payments/contract/internal/validation/index.js';

export type Schema = Record<string, unknown>;

/** A parameter's schema, with where it goes. */
export interface ParameterSchema {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
}

/** What requests to an operation are generated from. */
export interface OperationSchemas {
  parameters: ParameterSchema[];
  /** The application/json body's schema, when the operation takes a body. */
  body?: Schema;
  bodyRequired: boolean;
}

/** Resolves local `$ref`s (`#/components/...`) of one bundled document. */
export type Deref = (schema: Schema) => Schema;

const specs = new Map<Variant, Schema>();

/** A file shipped with this package, found upwards from this one: two levels up from src/, three from dist/src/. */
export function packageFile(relative: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 4; depth += 1) {
    const candidate = path.join(dir, relative);
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error(`${relative} was not found next to the package`);
}

const require = createRequire(import.meta.url);

/** A file the contract package exports (its bundled specs, its Arazzo workflows), wherever it is installed. */
export const contractFile = (entry: string): string => require.resolve(`@merchant-payments/contract/${entry}`);

const specFile = (variant: Variant) => contractFile(`openapi/variant-${variant}.yaml`);

function specOf(variant: Variant): Schema {
  let spec = specs.get(variant);
  if (!spec) {
    spec = parse(readFileSync(specFile(variant), 'utf8')) as Schema;
    specs.set(variant, spec);
  }
  return spec;
}

function at(document: Schema, pointer: string): Schema {
  let node: unknown = document;
  for (const token of pointer.replace(/^#?\//, '').split('/')) {
    node = (node as Record<string, unknown> | undefined)?.[token.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  if (node === undefined || node === null || typeof node !== 'object')
    throw new Error(`The spec has nothing at ${pointer}`);
  return node as Schema;
}

/** The $ref resolver of a variant's bundled spec; the referring node's own keywords are merged over the target's. */
export function derefOf(variant: Variant): Deref {
  const document = specOf(variant);
  const deref: Deref = (schema) => {
    const ref = schema.$ref;
    if (typeof ref !== 'string') return schema;
    const { $ref: _ignored, ...rest } = schema;
    return { ...deref(at(document, ref)), ...rest };
  };
  return deref;
}

/** The schemas requests to `operation` are generated from. */
export function schemasOf(variant: Variant, operation: OperationSpec): OperationSchemas {
  const deref = derefOf(variant);
  const node = at(specOf(variant), operation.pointer);
  // Note: parameters declared on the path item apply to each of its operations, unless the operation redeclares them.
  const item = at(specOf(variant), operation.pointer.slice(0, operation.pointer.lastIndexOf('/')));
  const own = ((node.parameters as Schema[] | undefined) ?? []).map(deref);
  const inherited = ((item.parameters as Schema[] | undefined) ?? [])
    .map(deref)
    .filter((shared) => !own.some((mine) => mine.name === shared.name && mine.in === shared.in));
  const parameters = [...inherited, ...own].map((raw) => {
    const parameter = deref(raw);
    return {
      name: String(parameter.name),
      in: parameter.in as ParameterSchema['in'],
      required: parameter.required === true,
      schema: deref((parameter.schema as Schema | undefined) ?? {}),
    };
  });
  const requestBody = node.requestBody === undefined ? undefined : deref(node.requestBody as Schema);
  const media = (requestBody?.content as Record<string, Schema> | undefined)?.['application/json'];
  return {
    parameters,
    body: media?.schema === undefined ? undefined : deref(media.schema as Schema),
    bodyRequired: requestBody?.required === true,
  };
}
