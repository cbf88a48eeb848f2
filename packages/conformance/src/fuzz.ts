// The fuzz stage: requests generated from each operation's schemas with fast-check, half fitting the contract and half
// broken in one place, sent with the credentials, plus one without them; every answer judged by checks.ts (in `send`).
// Paths with ids use objects created through the API by the generated create requests, or ids that do not exist.
import fc from 'fast-check';
import {
  operationsOf,
  validateRequest,
  type OperationSpec,
  type Variant,
} from '@merchant-payments/contract/internal/validation/index.js';
import { arbitraryOf, expand, outOfRangeOf, wrongTypeOf } from './arbitraries.js';
import { objectOf } from './checks.js';
import type { Send } from './exchange.js';
import type { Draft } from './http.js';
import { derefOf, schemasOf, type Deref, type OperationSchemas, type Schema } from './schemas.js';

/** What one generated case holds before it becomes a request: parameter values, body, and choices made by indexes. */
interface Case {
  params: Record<string, unknown>;
  body: unknown;
  pick: number;
  mutation: number;
}

type Mutation = (draft: Draft) => void;

const CREATES: Record<string, string> = { createPayment: 'payments', createPayout: 'payouts', createAppeal: 'appeals' };
/** The collection a path parameter names: the segment before it (`/payments/{id}` → payments). */
const collectionOf = (path: string, name: string) => path.split('/').at(path.split('/').indexOf(`{${name}}`) - 1) ?? '';

const text = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The ways to break one request of the operation, each changing one thing (given the valid draft). */
function mutationsOf(schemas: OperationSchemas, deref: Deref, body: unknown): Mutation[] {
  const mutations: Mutation[] = [];
  for (const parameter of schemas.parameters) {
    const schema = expand(parameter.schema, deref);
    const set = (value: string | undefined) => (draft: Draft) => {
      if (parameter.in === 'header') {
        if (value === undefined) delete draft.headers[parameter.name];
        else draft.headers[parameter.name] = value;
      } else if (parameter.in === 'query') {
        draft.query = [
          ...draft.query.filter(([name]) => name !== parameter.name),
          ...(value === undefined ? [] : [[parameter.name, value] as [string, string]]),
        ];
      }
    };
    if (parameter.in === 'path') continue;
    if (parameter.required) mutations.push(set(undefined));
    const wrong = wrongTypeOf(schema);
    if (typeof wrong === 'string') mutations.push(set(wrong));
    const out = outOfRangeOf(schema);
    // Note: header values must stay printable to be sent at all; control characters are for bodies.
    if (out !== undefined && !/[\u0000-\u001f]/.test(text(out))) mutations.push(set(text(out)));
    if (schema.type === 'string' && typeof schema.pattern === 'string') mutations.push(set('has spaces!'));
  }
  if (schemas.body === undefined) return mutations;
  const root = expand(schemas.body, deref);
  if (schemas.bodyRequired) mutations.push((draft) => void delete draft.body);
  mutations.push((draft) => {
    delete draft.body;
    draft.rawBody = '{"truncated": ';
  });
  mutations.push((draft) => void (draft.body = wrongTypeOf(root)));
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const properties = (root.properties as Record<string, Schema> | undefined) ?? {};
    if (root.additionalProperties === false)
      mutations.push((draft) => void ((draft.body as Record<string, unknown>).not_in_the_contract = 1));
    for (const name of (root.required as string[] | undefined) ?? []) {
      mutations.push((draft) => void delete (draft.body as Record<string, unknown>)[name]);
    }
    for (const [name, raw] of Object.entries(properties)) {
      if (!(name in body)) continue;
      const schema = expand(raw, deref);
      mutations.push((draft) => void ((draft.body as Record<string, unknown>)[name] = wrongTypeOf(schema)));
      const out = outOfRangeOf(schema);
      if (out !== undefined) mutations.push((draft) => void ((draft.body as Record<string, unknown>)[name] = out));
    }
  }
  return mutations;
}

/** Whether the package's own request validator takes the draft: the classification does not trust the generator. */
function fits(variant: Variant, operation: OperationSpec, draft: Draft, params: Record<string, string>): boolean {
  const rawBody = draft.rawBody ?? (draft.body === undefined ? null : JSON.stringify(draft.body));
  const headers = new Headers(draft.headers);
  if (rawBody !== null) headers.set('content-type', 'application/json');
  return validateRequest(variant, operation, { params, query: new URLSearchParams(draft.query), headers, rawBody }).ok;
}

/** Creates first (their ids feed the other operations), then the rest in the spec's order. */
const ordered = (operations: readonly OperationSpec[]) =>
  [...operations].sort((x, y) => Number(y.operationId in CREATES) - Number(x.operationId in CREATES));

/** Runs the stage: `requests` generated requests per operation from `seed`, and one without credentials. */
export async function fuzz({
  variant,
  seed,
  requests,
  send,
}: {
  variant: Variant;
  seed: number;
  requests: number;
  send: Send;
}): Promise<void> {
  const deref = derefOf(variant);
  const ids = new Map<string, string[]>();
  const currencies = new Map<string, string | undefined>();
  let keys = 0;
  const operations = ordered(operationsOf(variant));

  for (const [index, operation] of operations.entries()) {
    const schemas = schemasOf(variant, operation);
    const params = Object.fromEntries(
      schemas.parameters
        .filter((parameter) => parameter.in !== 'header' || parameter.name !== 'Idempotency-Key')
        .map((parameter) => [parameter.name, arbitraryOf(parameter.schema, deref)]),
    );
    const optional = schemas.parameters.filter((parameter) => !parameter.required).map((parameter) => parameter.name);
    const arbitrary: fc.Arbitrary<Case> = fc.record({
      params: fc.record(params, { requiredKeys: Object.keys(params).filter((name) => !optional.includes(name)) }),
      body: schemas.body === undefined ? fc.constant(undefined) : arbitraryOf(schemas.body, deref),
      pick: fc.nat(),
      mutation: fc.nat(),
    });
    // Note: one more case than asked for: the last one goes without credentials.
    const cases = fc.sample(arbitrary, { seed: seed + index, numRuns: requests + 1 });

    for (const [number, generated] of cases.entries()) {
      const draft: Draft = { method: operation.method, path: operation.path, query: [], headers: {} };
      const pathValues: Record<string, string> = {};
      for (const parameter of schemas.parameters) {
        const value = generated.params[parameter.name];
        if (parameter.name === 'Idempotency-Key') draft.headers[parameter.name] = `conformance-${seed}-${(keys += 1)}`;
        else if (value === undefined) continue;
        else if (parameter.in === 'header') draft.headers[parameter.name] = text(value);
        else if (parameter.in === 'query')
          draft.query.push(
            ...(Array.isArray(value)
              ? value.map((item) => [parameter.name, text(item)] as [string, string])
              : [[parameter.name, text(value)] as [string, string]]),
          );
        else {
          const known = ids.get(collectionOf(operation.path, parameter.name)) ?? [];
          // Note: one pick in four is an id that was never created, to see the 404 the contract declares.
          const id =
            known.length > 0 && generated.pick % 4 !== 0
              ? (known[generated.pick % known.length] as string)
              : text(value);
          pathValues[parameter.name] = id;
        }
      }
      draft.path = operation.path.replace(/\{([^}]+)\}/g, (_all, name: string) => {
        const value = pathValues[name];
        if (value === undefined) throw new Error(`${operation.operationId}: no schema for path parameter ${name}`);
        return encodeURIComponent(value);
      });
      if (generated.body !== undefined) draft.body = structuredClone(generated.body);
      if (operation.operationId === 'createAppeal' && draft.body && typeof draft.body === 'object') {
        const payments = ids.get('payments') ?? [];
        const target = payments[generated.pick % Math.max(payments.length, 1)];
        // Note: half the appeals name a created payment in its own currency, so that some can succeed.
        if (target && generated.pick % 2 === 0)
          Object.assign(draft.body, { transaction_id: target, currency: currencies.get(target) });
      }

      if (number === cases.length - 1) {
        await send(operation, 'unauthenticated', draft);
        continue;
      }
      const mutations = number % 2 === 1 ? mutationsOf(schemas, deref, draft.body) : [];
      if (mutations.length > 0) (mutations[generated.mutation % mutations.length] as Mutation)(draft);
      const kind = fits(variant, operation, draft, pathValues) ? 'valid' : 'invalid';
      const answer = await send(operation, kind, draft);
      const collection = CREATES[operation.operationId];
      const id =
        collection && answer && answer.status >= 200 && answer.status < 300 ? objectOf(answer.json)?.id : undefined;
      if (collection && id) {
        ids.set(collection, [...(ids.get(collection) ?? []), id]);
        currencies.set(id, (draft.body as { currency?: string } | undefined)?.currency);
      }
    }
  }
}
