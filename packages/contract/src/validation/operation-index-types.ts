// The types of the operation index that scripts/generate-operation-validators.mjs writes into
// packages/contract/generated/operations/operations.ts (and of its problem catalogue, packages/contract/generated/operations/problems.ts). The generated
// files import them from here, and operations.ts exports them again.
import type { SchemaValidator } from '../../generated/operations/validators.js';

/** The JSON type a parameter's text is read as. */
export type ParameterType = 'string' | 'integer' | 'number' | 'boolean' | 'array';

/** A parameter or response header: where it goes, how its text is read, its default and its schema's validator. */
export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  type: ParameterType;
  /** The type of an array's items. */
  items?: Exclude<ParameterType, 'array'>;
  /** For an array: true when each item repeats the name (query, style form), false when items are comma-separated. */
  explode?: boolean;
  default?: unknown;
  validator: SchemaValidator;
}

/** The validator of one media type's schema. */
export interface MediaSpec {
  validator: SchemaValidator;
}

/** A response of the contract: its declared headers and its content by media type (none: no body). */
export interface ResponseSpec {
  headers: ParameterSpec[];
  content: Readonly<Record<string, MediaSpec>>;
}

/** One security scheme of a requirement, with where its credential goes. */
export interface SecuritySchemeSpec {
  scheme: string;
  type: string;
  httpScheme?: string;
  in?: string;
  name?: string;
}

/** One operation of a variant. */
export interface OperationSpec {
  operationId: string;
  method: string;
  /** The path template, as written under `paths`. */
  path: string;
  /** JSON pointer of the operation in the bundled spec. */
  pointer: string;
  /** Alternatives, each a list of schemes that must all be satisfied. */
  security: SecuritySchemeSpec[][];
  parameters: ParameterSpec[];
  requestBody?: { required: boolean; content: Readonly<Record<string, MediaSpec>> };
  /** Status code (or `default`, `4XX`) → name of the response in the variant's `responses`. */
  responses: Readonly<Record<string, string>>;
}

/** The operations of one API (a variant, or the sandbox's control or admin API) and the responses they name. */
export interface VariantIndex {
  /** The bundled spec it was generated from. */
  source: string;
  operations: OperationSpec[];
  responses: Readonly<Record<string, ResponseSpec>>;
}

/** A problem `code` of the contract: the status, title and type URI its examples show. */
export interface ProblemSpec {
  status: number;
  title: string;
  type: string;
}
