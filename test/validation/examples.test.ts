// Every operation of both variants accepts its own spec's examples: a request built from the parameter and
// request-body examples validates, and every named response example validates with its status and headers.
import { describe, expect, it } from 'vitest';
import {
  findOperation,
  operationsOf,
  validateRequest,
  validateResponse,
  type Variant,
} from '../../packages/contract/src/validation/index.js';
import { BundledSpec, type Node } from '../contract/bundled-spec.js';

const specs: Record<Variant, BundledSpec> = {
  a: await BundledSpec.open('Variant A', 'variant-a'),
  b: await BundledSpec.open('Variant B', 'variant-b'),
};

/** The example a parameter or header shows (a JSON scalar): its own `example`, its first named example, or its schema's. */
function exampleOf(spec: BundledSpec, node: Node): string | number | boolean | null | undefined {
  if (node.example !== undefined) return node.example;
  const named = Object.values((node.examples ?? {}) as Node)[0] as Node | undefined;
  if (named) return spec.resolve(named).value;
  const schema = spec.expand(node.schema) as Node | undefined;
  return schema?.examples?.[0] ?? schema?.default;
}

/** Headers holding an example of every declared header (a response's, or an operation's header parameters). */
function exampleHeaders(spec: BundledSpec, declared: [string, Node][], contentType?: string): Headers {
  const headers = new Headers(contentType ? { 'content-type': contentType } : {});
  for (const [name, node] of declared) {
    const value = exampleOf(spec, spec.resolve(node));
    if (value !== undefined) headers.set(name, String(value));
  }
  return headers;
}

const cases = (Object.keys(specs) as Variant[]).flatMap((variant) =>
  specs[variant].operations().map((op) => ({ variant, op, name: `${variant} ${op.operationId}` })),
);

describe('the operation index', () => {
  it.each(Object.keys(specs) as Variant[])(
    'lists every operation of variant %s, with its method and path template',
    (variant) => {
      const listed = operationsOf(variant).map(
        (operation) => `${operation.method} ${operation.path} ${operation.operationId}`,
      );
      expect(listed.sort()).toEqual(
        specs[variant]
          .operations()
          .map((op) => `${op.method} ${op.path} ${op.operationId}`)
          .sort(),
      );
    },
  );
});

describe.each(cases)('$name', ({ variant, op }) => {
  const spec = specs[variant];

  it('accepts a request made of its examples', () => {
    const parameters = spec.parameters(op);
    const params = Object.fromEntries(
      parameters.filter((p) => p.in === 'path').map((p) => [p.name, String(exampleOf(spec, p.value))]),
    );
    const query = new URLSearchParams();
    for (const p of parameters.filter((p) => p.in === 'query')) {
      const value = exampleOf(spec, p.value);
      if (value !== undefined) query.set(p.name, String(value));
    }
    const headers = exampleHeaders(
      spec,
      parameters.filter((p) => p.in === 'header').map((p) => [p.name, p.node]),
    );
    for (const p of parameters.filter((p) => p.value.required === true))
      expect(exampleOf(spec, p.value), `${p.in} ${p.name} has no example`).toBeDefined();

    const body = spec.requestBody(op);
    const bodies = Object.entries((body?.content ?? {}) as Node).flatMap(([media, content]) =>
      Object.values((spec.resolve(content as Node).examples ?? {}) as Node).map((example) => ({
        media,
        value: spec.resolve(example as Node).value,
      })),
    );
    if (body) expect(bodies.length, 'request body examples').toBeGreaterThan(0);
    for (const { media, value } of bodies.length > 0 ? bodies : [{ media: undefined, value: undefined }]) {
      if (media) headers.set('content-type', media);
      const rawBody = value === undefined ? undefined : JSON.stringify(value);
      const result = validateRequest(variant, op.operationId, { params, query, headers, rawBody });
      expect(result.ok ? [] : result.violations).toEqual([]);
    }
  });

  it('accepts every named response example, with its status and headers', () => {
    const operation = findOperation(variant, op.operationId)!;
    let checked = 0;
    for (const code of Object.keys(op.node.responses ?? {})) {
      const response = spec.response(op, code)!;
      for (const [media, content] of Object.entries((response.content ?? {}) as Node)) {
        const headers = exampleHeaders(spec, Object.entries((response.headers ?? {}) as Node), media);
        for (const [name, example] of Object.entries((spec.resolve(content as Node).examples ?? {}) as Node)) {
          const body = spec.resolve(example as Node).value;
          expect(
            validateResponse(variant, operation, { status: Number(code), headers, body }),
            `${code} ${name}`,
          ).toEqual([]);
          expect(
            validateResponse(variant, operation, { status: Number(code), headers, rawBody: JSON.stringify(body) }),
            `${code} ${name} as text`,
          ).toEqual([]);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(Object.keys(op.node.responses ?? {}).length);
  });
});
