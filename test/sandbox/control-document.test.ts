// The control routes held to their document (packages/contract/generated/openapi/sandbox.yaml): its enums are the sandbox's own lists,
// every operation it declares is served, and the generated request checks accept and refuse what its schemas do.
import { describe, expect, it } from 'vitest';
import { nullableEnum } from '../../scripts/generate-lifecycles.mjs';
import { LIFECYCLES, REASON_CODES, TRIGGERS } from '../../packages/contract/generated/sandbox/lifecycles.js';
import { operationsOf } from '../../packages/contract/src/validation/index.js';
import { WEBHOOK_LAYOUTS } from '../../packages/sandbox/src/control/endpoints.js';
import { FAULT_KINDS, FAULT_OPERATIONS } from '../../packages/sandbox/src/control/faults.js';
import { DELIVERY_STATES } from '../../packages/sandbox/src/control/logs.js';
import { controlSandbox, controlSpec, controlValidator, controlViolations } from './control-fixtures.js';
import { call, clientA, paymentBody } from './fixtures.js';

const schema = (name: string) =>
  controlSpec.doc.components.schemas[name] as { enum?: unknown[]; properties?: Record<string, unknown> };
const enumOf = (name: string) => controlSpec.expand(schema(name)) as { enum: unknown[] };
const sorted = (values: Iterable<unknown>) => [...values].map(String).sort();
const A = { authorization: 'Bearer token-a' };

describe('the control document’s enums', () => {
  it('Trigger is every trigger of the lifecycle tables that changes a status, and control', () => {
    // Note: `api:create` makes an object in its first status; that is no status change, so no event carries it.
    const changing = TRIGGERS.filter((trigger) => trigger !== 'api:create');
    expect(sorted(enumOf('Trigger').enum)).toEqual(sorted([...changing, 'control']));
  });

  it('FaultOperationId is every operation of the main API, in both variants, and the routes’ list', () => {
    const both = new Set([...operationsOf('a'), ...operationsOf('b')].map((op) => op.operationId));
    expect(sorted(enumOf('FaultOperationId').enum)).toEqual(sorted(both));
    expect(sorted(FAULT_OPERATIONS)).toEqual(sorted(both));
  });

  it('FaultKind, DeliveryState and WebhookLayout are the lists the routes check against', () => {
    expect(enumOf('FaultKind').enum).toEqual([...FAULT_KINDS]);
    expect(enumOf('DeliveryState').enum).toEqual([...DELIVERY_STATES]);
    expect(enumOf('WebhookLayout').enum).toEqual([...WEBHOOK_LAYOUTS]);
  });

  it('the forced statuses and reason codes are the lifecycle tables’', () => {
    const statusEnum = (request: string) =>
      (controlSpec.expand(schema(request).properties!.status) as { enum: unknown[] }).enum;
    expect(statusEnum('ForcePaymentStatusRequest')).toEqual([...LIFECYCLES.payment.statuses]);
    expect(statusEnum('ForcePayoutStatusRequest')).toEqual([...LIFECYCLES.payout.statuses]);
    expect(statusEnum('ForceAppealStatusRequest')).toEqual([...LIFECYCLES.appeal.statuses]);
    expect(nullableEnum(controlSpec.expand(schema('ForcePaymentStatusRequest').properties!.reason_code))).toEqual([
      ...REASON_CODES,
    ]);
  });
});

describe('the control routes', () => {
  it('serve every operation of the document at its method and path', async () => {
    const sandbox = controlSandbox();
    const unserved: string[] = [];
    for (const op of controlSpec.operations()) {
      const path = op.path.replace(/\{[^}]+\}/g, 'id_1');
      const response = await call(sandbox, op.method, path, A);
      const body = response.status === 204 ? {} : await response.json();
      if (String(body.detail ?? '').startsWith('No operation of either variant'))
        unserved.push(`${op.method} ${op.path}`);
    }
    expect(unserved).toEqual([]);
  });

  it('are checked by a helper that does find a body off the document', async () => {
    const request = new Request('http://sandbox.test/_sandbox/clock');
    const wrong = new Response(JSON.stringify({ data: { now: 'yesterday' } }), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
    expect(await controlViolations(request, wrong)).toEqual([
      "retrieveClock 200 /data must have required property 'mode'",
      'retrieveClock 200 /data/now must match format "date-time"',
    ]);
    expect(await controlViolations(request, new Response(null, { status: 418 }))).toEqual([
      'retrieveClock declares no 418',
    ]);
  });
});

/** Request bodies on the edge of each schema; the routes must refuse (422 validation_failed) exactly those Ajv refuses. */
const SAMPLES: [string, string, unknown[]][] = [
  [
    'advanceClock',
    '/_sandbox/clock/advance',
    [
      { seconds: 0 },
      { seconds: 31_536_000 },
      { seconds: 31_536_001 },
      { seconds: -1 },
      { seconds: 2.5 },
      { seconds: '1' },
      { seconds: null },
      {},
      { seconds: 1, more: 1 },
      [],
      'x',
    ],
  ],
  [
    'createWebhookEndpoint',
    '/_sandbox/webhook-endpoints',
    [
      { url: 'http://127.0.0.1:3000/hooks' },
      { url: 'https://merchant.example/h?x=1#y' },
      { url: 'ftp://x.test/' },
      { url: 'http://a b.test/' },
      { url: 'http://u:p@x.test/' },
      { url: 'http://u@x.test/h?at=a@b' },
      { url: 'http://x.test/h?at=a@b' },
      { url: 'http://x.test/', layout: 'earlier' },
      { url: 'http://x.test/', layout: 'EARLIER' },
      { url: 'http://x.test/', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      { url: 'http://x.test/', secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS' },
      { url: 'http://x.test/', secret: 'sk_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwMfKQ' },
      { url: 42 },
      {},
    ],
  ],
  [
    'createFault',
    '/_sandbox/faults',
    [
      { operation_id: 'createPayment', kind: 'rate_limit' },
      { operation_id: 'createPayment', kind: 'rate_limit', count: 100, retry_after: 3600 },
      { operation_id: 'createPayment', kind: 'rate_limit', retry_after: 0 },
      { operation_id: 'createPayment', kind: 'rate_limit', retry_after: -1 },
      { operation_id: 'confirmPayment', kind: 'timeout', count: 1 },
      { operation_id: 'resetTenant', kind: 'timeout' },
      { operation_id: 'createPayment', kind: 'server_error', count: 1.5 },
      { operation_id: 'createPayment' },
      { kind: 'timeout' },
      { operation_id: 'createPayment', kind: 'timeout', extra: true },
    ],
  ],
  [
    'forcePaymentStatus',
    '/_sandbox/payments/pay_1/status',
    [
      { status: 'pending' },
      { status: 'failed', reason_code: 'declined' },
      { status: 'failed', reason_code: null },
      { status: 'failed', reason_code: 'nope' },
      { status: 'under_review' },
      {},
      { status: 'pending', when: 'now' },
    ],
  ],
  [
    'forcePayoutStatus',
    '/_sandbox/payouts/po_1/status',
    [{ status: 'processing' }, { status: 'accepted' }, { status: 'pending', reason_code: null }],
  ],
  ['forceAppealStatus', '/_sandbox/appeals/apl_1/status', [{ status: 'under_review' }, { status: 'succeeded' }]],
];

describe('the generated request checks', () => {
  it.each(SAMPLES)('of %s refuse exactly the bodies its schema refuses', async (operationId, path, bodies) => {
    const op = controlSpec.operation(operationId)!;
    const validate = controlValidator(`${operationId} request`, controlSpec.bodySchema(controlSpec.requestBody(op))!);
    const sandbox = controlSandbox();
    await clientA(sandbox).POST('/payments', { body: paymentBody() });
    const verdicts = [];
    for (const body of bodies) {
      const response = await call(sandbox, 'POST', path, A, JSON.stringify(body));
      const refused = response.status === 422 && (await response.json()).code === 'validation_failed';
      verdicts.push([body, refused]);
    }
    expect(verdicts).toEqual(bodies.map((body) => [body, !validate(body)]));
  });

  it('refuse a URL with no host, which the schema’s format: uri lets through, since nothing could be delivered to it', async () => {
    const response = await call(controlSandbox(), 'POST', '/_sandbox/webhook-endpoints', A, { url: 'http://' });
    expect([response.status, (await response.json()).errors[0].pointer]).toEqual([422, '/url']);
  });
});
