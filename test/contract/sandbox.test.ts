// The sandbox's control API document (packages/contract/openapi/sandbox/): its operations, security, errors, idempotency, examples and
// secrets, read from the bundle packages/contract/generated/openapi/sandbox.yaml.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { apis } from '../../scripts/lib/apis.mjs';
import { root } from '../../scripts/lib/tools.mjs';
import { signWebhook } from '../../packages/contract/src/webhooks/index.js';
import { BundledSpec, type Node } from './bundled-spec.js';

const spec = await BundledSpec.open('Sandbox control', 'sandbox');
const variants = [await BundledSpec.open('Variant A', 'variant-a'), await BundledSpec.open('Variant B', 'variant-b')];
const operations = spec.operations();

/** Every operation of the control API: method, path, operationId. */
const EXPECTED = [
  ['GET', '/_sandbox/clock', 'retrieveClock'],
  ['POST', '/_sandbox/clock/advance', 'advanceClock'],
  ['POST', '/_sandbox/reset', 'resetTenant'],
  ['GET', '/_sandbox/events', 'listEvents'],
  ['GET', '/_sandbox/deliveries', 'listDeliveries'],
  ['POST', '/_sandbox/deliveries/{deliveryId}/redeliver', 'redeliverDelivery'],
  ['POST', '/_sandbox/webhook-endpoints', 'createWebhookEndpoint'],
  ['GET', '/_sandbox/webhook-endpoints', 'listWebhookEndpoints'],
  ['DELETE', '/_sandbox/webhook-endpoints', 'deleteWebhookEndpoints'],
  ['DELETE', '/_sandbox/webhook-endpoints/{endpointId}', 'deleteWebhookEndpoint'],
  ['GET', '/_sandbox/webhook-listener', 'connectWebhookListener'],
  ['POST', '/_sandbox/payments/{paymentId}/status', 'forcePaymentStatus'],
  ['POST', '/_sandbox/payouts/{payoutId}/status', 'forcePayoutStatus'],
  ['POST', '/_sandbox/appeals/{appealId}/status', 'forceAppealStatus'],
  ['POST', '/_sandbox/faults', 'createFault'],
  ['GET', '/_sandbox/faults', 'listFaults'],
  ['DELETE', '/_sandbox/faults', 'deleteFaults'],
  ['POST', '/_sandbox/tenants', 'createTestTenant'],
  ['GET', '/_sandbox/tenants', 'listTestTenants'],
  ['DELETE', '/_sandbox/tenants/{tenantId}', 'deleteTestTenant'],
];

const PROBLEM = 'application/problem+json';
const stateChanging = operations.filter((op) => op.method !== 'GET');

describe('the sandbox control API document', () => {
  it("says once, for the whole document, that it is the project's own design and not part of the interface", () => {
    expect(spec.doc.info['x-provenance']).toBe('assumed');
    expect(spec.doc.info.description).toContain('Not part of the merchant payments interface');
    expect(spec.doc.info.title).toBe('Merchant Payments API (Sandbox control)');
  });

  it('has exactly the documented operations, every path under /_sandbox', () => {
    expect(operations.map((op) => [op.method, op.path, op.operationId]).sort()).toEqual([...EXPECTED].sort());
    expect(spec.doc.webhooks).toBeUndefined();
  });

  it('keeps the split layout: one path file per path, `/` turned into `_`, braces kept', () => {
    const source = parse(readFileSync(path.join(root, apis.sandbox!.root), 'utf8'));
    for (const [route, item] of Object.entries(source.paths as Record<string, Node>)) {
      expect(item.$ref, route).toBe(`paths/${route.slice(1).replaceAll('/', '_')}.yaml`);
    }
  });

  it("accepts either variant's credentials: the bearer token, or both keys of the pair, and no operation overrides that", () => {
    expect(spec.doc.security).toEqual([{ bearerAuth: [] }, { publicKey: [], secretKey: [] }]);
    const schemes = spec.expand(spec.doc.components.securitySchemes) as Node;
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.publicKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Public-Key' });
    expect(schemes.secretKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Secret-Key' });
    for (const op of operations) expect(op.node.security, op.operationId).toBeUndefined();
  });

  it.each(operations.map((op) => [op.operationId, op] as const))(
    "%s answers 400, 401, 422, 429 (its merchant's rate limit and budget) and 500 as problem+json, and no error as JSON",
    (_id, op) => {
      const codes = Object.keys(op.node.responses);
      expect(codes).toEqual(expect.arrayContaining(['400', '401', '422', '429', '500']));
      expect(Object.keys(spec.response(op, '429')!.headers as Node)).toEqual([
        'RateLimit',
        'RateLimit-Policy',
        'Retry-After',
      ]);
      for (const code of codes.filter((c) => /^[45]/.test(c))) {
        const content = spec.response(op, code)!.content as Node;
        expect(Object.keys(content), `${code}`).toEqual([PROBLEM]);
        expect(spec.refName(content[PROBLEM].schema)).toBe('Problem');
      }
    },
  );

  it('answers 404 exactly on the operations that address one object by id', () => {
    for (const op of operations) {
      expect('404' in op.node.responses, op.operationId).toBe(op.path.includes('{'));
    }
  });

  it('takes an optional Idempotency-Key on every POST and DELETE, and answers 409 only there', () => {
    for (const op of operations) {
      const key = spec.parameters(op).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
      // Note: a replay of Create Test Tenant would have to show again credentials kept only as hashes.
      if (op.method === 'GET' || op.operationId === 'createTestTenant') {
        expect(key, op.operationId).toBeUndefined();
        expect(op.node.responses['409'], op.operationId).toBeUndefined();
        continue;
      }
      expect(key?.value.required ?? false, op.operationId).toBe(false);
      expect(spec.response(op, '409')!.content[PROBLEM].examples, op.operationId).toHaveProperty(
        'idempotency_request_in_progress',
      );
    }
    expect(stateChanging.length).toBe(13);
  });

  it('closes every request body to fields it does not list', () => {
    const withBody = operations.filter((op) => spec.requestBody(op));
    expect(withBody.map((op) => op.operationId).sort()).toEqual([
      'advanceClock',
      'createFault',
      'createWebhookEndpoint',
      'forceAppealStatus',
      'forcePaymentStatus',
      'forcePayoutStatus',
    ]);
    for (const op of withBody) {
      expect(spec.requestBody(op)!.required, op.operationId).toBe(true);
      expect(spec.resolve(spec.bodySchema(spec.requestBody(op))!).additionalProperties, op.operationId).toBe(false);
    }
  });

  it('refuses an illegal forced transition with 422 invalid_state', () => {
    for (const id of ['forcePaymentStatus', 'forcePayoutStatus', 'forceAppealStatus']) {
      const examples = spec.response(spec.operation(id)!, '422')!.content[PROBLEM].examples as Node;
      expect((spec.expand(examples.invalid_state) as Node).value, id).toMatchObject({
        status: 422,
        code: 'invalid_state',
      });
    }
  });

  it('lets a forced status be any status of its kind, and reason_code be chosen for payments only', () => {
    const body = (id: string) => spec.properties(spec.bodySchema(spec.requestBody(spec.operation(id)!)));
    expect(spec.refName(body('forcePaymentStatus').get('status'))).toBe('PaymentStatus');
    expect(spec.refName(body('forcePaymentStatus').get('reason_code'))).toBe('ReasonCode');
    expect(spec.refName(body('forcePayoutStatus').get('status'))).toBe('PayoutStatus');
    expect(spec.refName(body('forceAppealStatus').get('status'))).toBe('AppealStatus');
    expect([...body('forcePayoutStatus').keys()]).toEqual(['status']);
    expect([...body('forceAppealStatus').keys()]).toEqual(['status']);
  });

  it('takes retry_after on a rate_limit fault only, in the schema and not in prose alone', () => {
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(
      spec.expand(spec.bodySchema(spec.requestBody(spec.operation('createFault')!))) as Node,
    );
    const fault = { operation_id: 'createPayment' };
    expect(validate({ ...fault, kind: 'rate_limit', retry_after: 2 })).toBe(true);
    expect(validate({ ...fault, kind: 'server_error' })).toBe(true);
    expect(validate({ ...fault, kind: 'server_error', retry_after: 2 })).toBe(false);
    expect(validate({ ...fault, kind: 'timeout', retry_after: 0 })).toBe(false);
  });

  // Note: a fault names an operation of the main API; a name that drifted from the variants would fault nothing.
  it('offers faults on exactly the operations of the two variants', () => {
    const ids = new Set(variants.flatMap((v) => v.operations().map((op) => op.operationId)));
    expect([...(spec.doc.components.schemas.FaultOperationId.enum as string[])].sort()).toEqual([...ids].sort());
  });

  it("logs the later webhook layout's body and a status of any kind of object", () => {
    const change = spec.properties({ $ref: '#/components/schemas/StatusChange' });
    expect(spec.refName(change.get('event'))).toBe('WebhookEvent');
    const statuses = (spec.doc.components.schemas.ObjectStatus.anyOf as Node[]).map((s) => spec.refName(s));
    expect(statuses).toEqual(['PaymentStatus', 'PayoutStatus', 'AppealStatus']);
  });
});

describe('webhook secrets in the control API', () => {
  /** Every property name reachable from a node, `$ref`s followed. */
  const propertyNames = (node: unknown): Set<string> => {
    const names = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [key, child] of Object.entries(value as Node)) {
        if (key === 'properties') Object.keys(child as Node).forEach((name) => names.add(name));
        if (key !== 'examples' && key !== 'example') walk(child);
      }
    };
    walk(spec.expand(node));
    return names;
  };

  it('shows a secret only in the answer that creates an endpoint', () => {
    for (const op of operations) {
      for (const code of Object.keys(op.node.responses)) {
        const shown = propertyNames(spec.response(op, code)).has('secret');
        expect(shown, `${op.operationId} ${code}`).toBe(op.operationId === 'createWebhookEndpoint' && code === '201');
      }
    }
  });

  it('leaves the secret out of the endpoint as listed, and marks it as a password', () => {
    expect(propertyNames({ $ref: '#/components/schemas/WebhookEndpoint' }).has('secret')).toBe(false);
    expect(propertyNames({ $ref: '#/components/schemas/Delivery' }).has('secret')).toBe(false);
    expect(spec.doc.components.schemas.WebhookSecret.format).toBe('password');
  });

  it('takes the secret format that signWebhook takes: whsec_ and padded base64 of 24 bytes or more', () => {
    const pattern = new RegExp(spec.doc.components.schemas.WebhookSecret.pattern as string);
    const secret = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;
    for (const bytes of [24, 25, 26, 32, 64]) expect(pattern.test(secret(bytes)), `${bytes} bytes`).toBe(true);
    for (const bytes of [16, 22, 23]) expect(pattern.test(secret(bytes)), `${bytes} bytes`).toBe(false);
    expect(secret(24).length).toBeGreaterThanOrEqual(spec.doc.components.schemas.WebhookSecret.minLength as number);
    expect(pattern.test('whsec_not base64!')).toBe(false);
    expect(pattern.test(secret(24).slice(0, -1))).toBe(false);
  });

  it('shows example secrets that signWebhook accepts, each signature made with the decoded bytes', async () => {
    const examples = [
      ...(spec.doc.components.schemas.WebhookSecret.examples as string[]),
      (
        spec.expand(
          spec.response(spec.operation('createWebhookEndpoint')!, '201')!.content['application/json'].examples,
        ) as Node
      ).generated_secret.value.data.secret,
      (
        spec.expand(
          spec.requestBody(spec.operation('createWebhookEndpoint')!)!.content['application/json'].examples,
        ) as Node
      ).given_secret.value.secret,
    ] as string[];
    expect(examples.length).toBe(3);
    for (const secret of examples) {
      const headers = await signWebhook({ id: 'evt_1', body: '{}', secret, timestamp: 1 });
      const expected = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
        .update('evt_1.1.{}')
        .digest('base64');
      expect(headers['X-Signature'], secret).toBe(`v1,${expected}`);
    }
  });
});

describe('examples of the sandbox control API', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addFormat('password', true);
  ajv.addSchema(spec.doc, 'sandbox.yaml');
  const check = (schema: Node, value: unknown) => {
    expect(typeof schema.$ref, 'bodies name their schema').toBe('string');
    const validate = ajv.getSchema(`sandbox.yaml${schema.$ref}`)!;
    return validate(value) ? [] : validate.errors;
  };

  it.each(operations.map((op) => [op.operationId, op] as const))(
    '%s has a named example for each body, and each fits its schema',
    (_id, op) => {
      const bodies: [string, Node | undefined][] = [['request', spec.requestBody(op)]];
      for (const code of Object.keys(op.node.responses)) bodies.push([code, spec.response(op, code)]);
      for (const [where, body] of bodies) {
        for (const [mediaType, content] of Object.entries((body?.content ?? {}) as Node)) {
          const examples = Object.entries(spec.expand((content as Node).examples ?? {}) as Node);
          expect(examples.length, `${where} ${mediaType}`).toBeGreaterThan(0);
          for (const [name, example] of examples)
            expect(check((content as Node).schema, (example as Node).value), `${where} ${name}`).toEqual([]);
        }
      }
    },
  );

  it('has a 2xx answer for every operation: 200 with a body, 201 for what is created, 204 for what is removed or reset; 101 for the WebSocket', () => {
    for (const op of operations) {
      const success = Object.keys(op.node.responses).filter((c) => /^[12]/.test(c));
      const expected =
        op.operationId === 'connectWebhookListener'
          ? '101'
          : op.method === 'DELETE' || op.operationId === 'resetTenant'
            ? '204'
            : op.operationId.startsWith('create')
              ? '201'
              : '200';
      expect(success, op.operationId).toEqual([expected]);
      expect(Boolean(spec.response(op, expected)!.content), op.operationId).toBe(!['101', '204'].includes(expected));
    }
  });
});
