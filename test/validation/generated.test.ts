// The generated operation validators compile each schema once and hold nothing unused; the generator refuses what
// packages/contract/src/validation could not read correctly rather than guess.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { operationIndex } from '../../packages/contract/generated/operations/operations.js';
import * as validators from '../../packages/contract/generated/operations/validators.js';
import { readOperations } from '../../scripts/lib/operation-index.mjs';
import { openBundle } from '../../scripts/lib/refs.mjs';
import { requireSharedSchemas } from '../../scripts/lib/schema-registry.mjs';

const used = new Set<unknown>();
for (const variant of Object.values(operationIndex)) {
  for (const operation of variant.operations) {
    for (const parameter of operation.parameters) used.add(parameter.validator);
    for (const media of Object.values(operation.requestBody?.content ?? {})) used.add(media.validator);
  }
  for (const response of Object.values(variant.responses)) {
    for (const header of response.headers) used.add(header.validator);
    for (const media of Object.values(response.content)) used.add(media.validator);
  }
}

describe('packages/contract/generated/operations', () => {
  it('exports only validators the index uses, each a function', () => {
    const exported = Object.entries(validators).filter(([name]) => name.startsWith('validate'));
    expect(exported.filter(([, validate]) => !used.has(validate)).map(([name]) => name)).toEqual([]);
    expect(exported.every(([, validate]) => typeof validate === 'function')).toBe(true);
  });

  it('compiles a schema both variants use once: the same parameter and body share one validator', () => {
    const parameter = (variant: 'a' | 'b', operationId: string, name: string) =>
      operationIndex[variant].operations
        .find((operation) => operation.operationId === operationId)
        ?.parameters.find((p) => p.name === name)?.validator;
    expect(parameter('a', 'listPayments', 'limit')).toBe(validators.validateLimitParameter);
    expect(parameter('b', 'listPayments', 'limit')).toBe(validators.validateLimitParameter);
    expect(parameter('a', 'retrievePayment', 'id')).toBe(parameter('b', 'retrievePayment', 'paymentId'));
    expect(operationIndex.a.responses.BadRequest!.content['application/problem+json']!.validator).toBe(
      validators.validateProblem,
    );
  });
});

describe('the generator', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'operation-index-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Reads the operations of a one-operation spec with the given parameter and request body. */
  async function read(parameter: object, content: object = {}) {
    const file = path.join(dir, 'spec.yaml');
    const operation = {
      operationId: 'op',
      parameters: [parameter],
      requestBody: { content },
      responses: { 200: { description: 'ok' } },
    };
    writeFileSync(
      file,
      stringify({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: { '/x': { post: operation } } }),
    );
    return readOperations(await openBundle(file), () => 'validateX', 'spec');
  }
  const query = (schema: object, extra: object = {}) => ({ name: 'q', in: 'query', schema, ...extra });

  it('reads a simple parameter with its type and default', async () => {
    const { operations } = await read(query({ type: 'integer', default: 3 }));
    expect(operations[0]!.parameters).toEqual([
      { name: 'q', in: 'query', required: false, type: 'integer', default: 3, validator: 'validateX' },
    ]);
  });

  it.each([
    ['an object parameter', query({ type: 'object' }), /object parameters are not supported/],
    [
      'a style it does not read',
      query({ type: 'array', items: { type: 'string' } }, { style: 'deepObject' }),
      /style deepObject is not supported/,
    ],
    ['a parameter of several types', query({ type: ['string', 'integer'] }), /one type to read its text as/],
    [
      'a cookie parameter',
      { name: 'c', in: 'cookie', schema: { type: 'string' } },
      /cookie parameters are not supported/,
    ],
  ])('refuses %s', async (_name, parameter, message) => {
    await expect(read(parameter)).rejects.toThrow(message);
  });

  it('refuses a media type other than JSON', async () => {
    await expect(read(query({ type: 'string' }), { 'text/csv': { schema: { type: 'string' } } })).rejects.toThrow(
      /media type text\/csv is not supported/,
    );
  });

  it('refuses a variant whose component schema differs from the shared one', () => {
    const shared = { components: { schemas: { Money: { type: 'string' } } } };
    expect(() =>
      requireSharedSchemas({ components: { schemas: { Money: { type: 'number' } } } }, shared, 'variant-x'),
    ).toThrow(/Money of variant-x differs/);
  });
});
