// Parity: Variant A and Variant B expose the same operations and resources, apart from the documented differences.
import { describe, expect, it } from 'vitest';
import { BundledSpec, firstDifference, normalisePath, type Node } from './bundled-spec.js';

const a = await BundledSpec.open('Variant A', 'variant-a');
const b = await BundledSpec.open('Variant B', 'variant-b');

/** The documented differences: operations only one variant has. */
const ONLY_IN_A = ['confirmPayment'];
const ONLY_IN_B: string[] = [];

/** Operations whose 200 body differs by design: Variant A's payment shapes. */
const VARIANT_A_PAYMENT_SHAPES: Record<string, string> = {
  retrievePayment: 'PaymentWithReasonResponse',
  createPayment: 'PaymentWithReasonResponse',
  cancelPayment: 'PaymentWithReasonResponse',
  refundPayment: 'PaymentWithReasonResponse',
};

const byId = (spec: BundledSpec) => new Map(spec.operations().map((o) => [o.operationId, o]));
const shared = () => [...byId(a).keys()].filter((id) => byId(b).has(id));

/** An operation with what may differ between the variants removed: path prefix and parameter names, wording. */
function comparable(spec: BundledSpec, operationId: string) {
  const o = byId(spec).get(operationId)!;
  const parameters = spec
    .parameters(o)
    .map((p) => ({
      in: p.in,
      name: p.in === 'path' ? '{}' : p.name,
      required: p.value.required ?? false,
      schema: spec.expand(p.value.schema),
    }))
    .sort((x, y) => `${x.in}${x.name}`.localeCompare(`${y.in}${y.name}`));
  const requestBody = spec.requestBody(o);
  return {
    method: o.method,
    path: normalisePath(o.path),
    parameters,
    requestBody: requestBody && {
      required: requestBody.required ?? false,
      schema: spec.expand(spec.bodySchema(requestBody)),
    },
    responses: Object.keys(o.node.responses).sort(),
  };
}

/** Strips prose, which differs between the variants by design, from an expanded schema. */
function withoutProse(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutProse);
  if (node === null || typeof node !== 'object') return node;
  const skip = new Set([
    'description',
    'summary',
    'x-assumed',
    'x-provenance',
    'x-assumed-reason',
    'examples',
    'example',
  ]);
  return Object.fromEntries(
    Object.entries(node as Node)
      .filter(([k]) => !skip.has(k))
      .map(([k, v]) => [k, withoutProse(v)]),
  );
}

describe('parity between Variant A and Variant B', () => {
  it('both expose the same operations, apart from Confirm Payment (Variant A only)', () => {
    const onlyA = [...byId(a).keys()].filter((id) => !byId(b).has(id)).sort();
    const onlyB = [...byId(b).keys()].filter((id) => !byId(a).has(id)).sort();
    expect(onlyA).toEqual(ONLY_IN_A);
    expect(onlyB).toEqual(ONLY_IN_B);
    expect(shared().length).toBe(14);
  });

  it.each(shared())('%s: same method, path (without the prefix), parameters, request body and status codes', (id) => {
    const left = withoutProse(comparable(a, id));
    const right = withoutProse(comparable(b, id));
    expect(firstDifference(left, right), `${id} differs between the variants at`).toBeUndefined();
  });

  it.each(shared())('%s: same 200 body, apart from Variant A payment shapes', (id) => {
    const schemaA = a.bodySchema(a.response(byId(a).get(id)!, '200'))!;
    const schemaB = b.bodySchema(b.response(byId(b).get(id)!, '200'))!;
    if (VARIANT_A_PAYMENT_SHAPES[id]) {
      expect(a.refName(schemaA)).toBe(VARIANT_A_PAYMENT_SHAPES[id]);
      expect(b.refName(schemaB)).toBe('PaymentResponse');
      return;
    }
    expect(
      firstDifference(withoutProse(a.expand(schemaA)), withoutProse(b.expand(schemaB))),
      `${id} 200 body differs at`,
    ).toBeUndefined();
  });

  it('both expose the same resources (schemas), apart from the documented payment shapes', () => {
    const schemas = (spec: BundledSpec) => new Set(Object.keys(spec.doc.components.schemas));
    const onlyA = [...schemas(a)].filter((n) => !schemas(b).has(n)).sort();
    const onlyB = [...schemas(b)].filter((n) => !schemas(a).has(n)).sort();
    expect(onlyA).toEqual([
      'ConfirmPaymentRequest',
      'ConfirmedPaymentResponse',
      'PaymentWithReason',
      'PaymentWithReasonResponse',
      'Receipt',
    ]);
    expect(onlyB).toEqual(['PaymentResponse']);
  });

  it('shared resources are identical in both bundles', () => {
    const names = Object.keys(a.doc.components.schemas).filter((n) => n in b.doc.components.schemas);
    for (const name of names) {
      const ref = { $ref: `#/components/schemas/${name}` };
      expect(firstDifference(a.expand(ref), b.expand(ref)), `schema ${name} differs at`).toBeUndefined();
    }
  });

  it('both carry the same webhooks, byte for byte', () => {
    expect(firstDifference(a.expand(a.doc.webhooks), b.expand(b.doc.webhooks))).toBeUndefined();
  });

  it('they differ in authentication and prefix, as documented', () => {
    expect(Object.keys(a.doc.components.securitySchemes)).toEqual(['bearerAuth']);
    expect(Object.keys(b.doc.components.securitySchemes).sort()).toEqual(['publicKey', 'secretKey']);
    expect(a.operations().every((o) => !o.path.startsWith('/merchant/v1'))).toBe(true);
    expect(b.operations().every((o) => o.path.startsWith('/merchant/v1/'))).toBe(true);
  });
});
