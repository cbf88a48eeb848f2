// Fidelity: everything ../shared/interface.md states, table by table, is in the bundled specs exactly as stated.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { BundledSpec, type Node, type Operation } from './bundled-spec.js';

const a = await BundledSpec.open('Variant A', 'variant-a');
const b = await BundledSpec.open('Variant B', 'variant-b');
const variants = [a, b];

/** The operation, failing with the operationId when it is missing. */
function op(spec: BundledSpec, operationId: string): Operation {
  const found = spec.operation(operationId);
  if (!found) throw new Error(`${spec.label}: no operation ${operationId}`);
  return found;
}

/** The schema of the 200 JSON body of an operation. */
function okSchema(spec: BundledSpec, operationId: string): Node {
  const schema = spec.bodySchema(spec.response(op(spec, operationId), '200'));
  if (!schema) throw new Error(`${spec.label} ${operationId}: no 200 application/json schema`);
  return schema;
}

/** The schema of `data` in a `{ data }` body (the item schema when `data` is an array). */
function dataOf(spec: BundledSpec, schema: Node): Node {
  const data = spec.properties(schema).get('data');
  if (!data) throw new Error(`${spec.label}: body has no data`);
  return spec.itemsOf(data);
}

/** Asserts each dotted field exists with the stated JSON type. */
function expectFields(spec: BundledSpec, schema: Node, fields: Record<string, string>) {
  for (const [field, type] of Object.entries(fields)) {
    const node = spec.field(schema, field);
    expect(node, `${spec.label}: field ${field} is missing`).toBeDefined();
    expect([...spec.types(node!)], `${spec.label}: field ${field} must be a ${type}`).toContain(type);
  }
}

/** The property names of an object schema (allOf merged). */
const names = (spec: BundledSpec, schema: Node | undefined) => [...spec.properties(schema).keys()].sort();

const MONEY = { amount: 'string', currency: 'string' };
const money = (field: string) => ({ [`${field}.amount`]: 'string', [`${field}.currency`]: 'string' });
const PAYMENT_COMMON = {
  id: 'string',
  type: 'string',
  ...money('requested'),
  ...money('initialized'),
  ...money('processed'),
  ...money('refunded'),
  requisite: 'object',
  status: 'string',
  expires_at: 'string',
  created_at: 'string',
  metadata: 'object',
};
const LIST_REQUISITE = ['bank', 'card_holder', 'card_number', 'type'];
const CONFIRM_REQUISITE = ['bank', 'card', 'holder', 'type'];

describe('section 2: resources and their fields', () => {
  it.each(variants)('$label: Money has amount and currency, both strings, and no other field', (spec) => {
    const schema = { $ref: '#/components/schemas/Money' };
    expectFields(spec, schema, MONEY);
    expect(names(spec, schema)).toEqual(['amount', 'currency']);
  });

  it.each(variants)('$label: every money field of payments, payouts and appeals is the shared Money', (spec) => {
    const owners = {
      Payment: ['requested', 'initialized', 'processed', 'refunded'],
      Payout: ['requested', 'processed'],
      Appeal: ['requested', 'resolved'],
    };
    for (const [schema, fields] of Object.entries(owners)) {
      for (const field of fields) {
        const node = spec.field({ $ref: `#/components/schemas/${schema}` }, field);
        expect(spec.refName(node), `${schema}.${field}`).toBe('Money');
      }
    }
  });

  it('Variant B: every payment response has the list-item shape with updated_at and no reason_code or finalized_at', () => {
    for (const id of ['createPayment', 'retrievePayment', 'cancelPayment', 'refundPayment', 'listPayments']) {
      const payment = dataOf(b, okSchema(b, id));
      expectFields(b, payment, {
        ...PAYMENT_COMMON,
        updated_at: 'string',
        'requisite.type': 'string',
        'requisite.card_number': 'string',
        'requisite.card_holder': 'string',
        'requisite.bank': 'string',
      });
      expect(names(b, b.field(payment, 'requisite')), id).toEqual(LIST_REQUISITE);
      expect(b.field(payment, 'reason_code'), `${id}: reason_code is Variant A only`).toBeUndefined();
      expect(b.field(payment, 'finalized_at'), `${id}: finalized_at is Variant A confirm only`).toBeUndefined();
    }
  });

  it('Variant A list items: requisite {type, card_number, card_holder, bank} and updated_at, no reason_code', () => {
    const item = dataOf(a, okSchema(a, 'listPayments'));
    expectFields(a, item, {
      ...PAYMENT_COMMON,
      updated_at: 'string',
      'requisite.card_number': 'string',
      'requisite.card_holder': 'string',
    });
    expect(names(a, a.field(item, 'requisite'))).toEqual(LIST_REQUISITE);
    expect(a.field(item, 'reason_code')).toBeUndefined();
    expect(a.field(item, 'finalized_at')).toBeUndefined();
  });

  it('Variant A confirm response: requisite {type, card, holder, bank}, reason_code, finalized_at in place of updated_at', () => {
    const payment = dataOf(a, okSchema(a, 'confirmPayment'));
    expectFields(a, payment, {
      ...PAYMENT_COMMON,
      reason_code: 'string',
      finalized_at: 'string',
      'requisite.type': 'string',
      'requisite.card': 'string',
      'requisite.holder': 'string',
      'requisite.bank': 'string',
    });
    expect(names(a, a.field(payment, 'requisite'))).toEqual(CONFIRM_REQUISITE);
    expect(a.field(payment, 'updated_at'), 'finalized_at replaces updated_at').toBeUndefined();
    // The source: "the value `card` appears" for the confirm requisite type.
    const example = a.expand(a.response(op(a, 'confirmPayment'), '200')) as Node;
    const values = Object.values(example.content['application/json'].examples as Node).map(
      (e: Node) => e.value.data.requisite.type,
    );
    expect(values).toContain('card');
  });

  it('Variant A retrieve response carries reason_code', () => {
    const payment = dataOf(a, okSchema(a, 'retrievePayment'));
    expectFields(a, payment, { ...PAYMENT_COMMON, reason_code: 'string' });
  });

  it.each(variants)('$label: the create-payment request requisite has type and bank only', (spec) => {
    const body = spec.bodySchema(spec.requestBody(op(spec, 'createPayment')))!;
    expect(names(spec, spec.field(body, 'requisite'))).toEqual(['bank', 'type']);
  });

  it.each(variants)('$label: Payout has the stated fields and no initialized or refunded', (spec) => {
    const payout = dataOf(spec, okSchema(spec, 'retrievePayout'));
    expectFields(spec, payout, {
      id: 'string',
      type: 'string',
      ...money('requested'),
      ...money('processed'),
      'requisite.type': 'string',
      'requisite.card_number': 'string',
      'requisite.card_holder': 'string',
      'requisite.bank': 'string',
      status: 'string',
      expires_at: 'string',
      created_at: 'string',
      updated_at: 'string',
      metadata: 'object',
    });
    expect(names(spec, spec.field(payout, 'requisite'))).toEqual(LIST_REQUISITE);
    expect(spec.field(payout, 'initialized')).toBeUndefined();
    expect(spec.field(payout, 'refunded')).toBeUndefined();
  });

  it.each(variants)('$label: Appeal has the stated fields, attachments an object of five strings', (spec) => {
    const appeal = dataOf(spec, okSchema(spec, 'retrieveAppeal'));
    expectFields(spec, appeal, {
      id: 'string',
      appeal_id: 'string',
      ...money('requested'),
      ...money('resolved'),
      attachments: 'object',
      'attachments.id': 'string',
      'attachments.type': 'string',
      'attachments.filename': 'string',
      'attachments.url': 'string',
      'attachments.created_at': 'string',
      status: 'string',
      created_at: 'string',
      updated_at: 'string',
      metadata: 'object',
    });
    expect(names(spec, spec.field(appeal, 'attachments'))).toEqual(['created_at', 'filename', 'id', 'type', 'url']);
  });

  it.each(variants)('$label: Pagination has total, limit and offset, all integers', (spec) => {
    expectFields(
      spec,
      { $ref: '#/components/schemas/Pagination' },
      { total: 'integer', limit: 'integer', offset: 'integer' },
    );
  });

  it.each(variants)(
    '$label: single-object responses are { data } and list responses { data, pagination } with an array',
    (spec) => {
      for (const operation of spec.operations()) {
        const schema = okSchema(spec, operation.operationId);
        const isList = operation.operationId.startsWith('list');
        expect(names(spec, schema), operation.operationId).toEqual(isList ? ['data', 'pagination'] : ['data']);
        const data = spec.properties(schema).get('data')!;
        expect(spec.types(data).has('array'), `${operation.operationId}: data is an array only on lists`).toBe(isList);
        if (isList) expect(spec.refName(spec.properties(schema).get('pagination'))).toBe('Pagination');
      }
    },
  );
});

// Operations the source names, per variant: [operationId, method, path or undefined when not shown].
const VARIANT_A: [string, string, string | undefined][] = [
  ['createPayment', 'POST', '/payments'],
  ['listPayments', 'GET', '/payments'],
  ['retrievePayment', 'GET', undefined],
  ['confirmPayment', 'POST', '/payments/{id}/confirm'],
  ['cancelPayment', 'POST', undefined],
  ['refundPayment', 'POST', undefined],
  ['createPayout', 'POST', undefined],
  ['listPayouts', 'GET', undefined],
  ['retrievePayout', 'GET', undefined],
  ['cancelPayout', 'POST', undefined],
  ['createAppeal', 'POST', undefined],
  ['listAppeals', 'GET', undefined],
  ['retrieveAppeal', 'GET', undefined],
  ['cancelAppeal', 'POST', undefined],
  ['retrieveBalance', 'GET', undefined],
];
const VARIANT_B: [string, string, string | undefined][] = [
  ['createPayment', 'POST', '/merchant/v1/payments'],
  ['listPayments', 'GET', '/merchant/v1/payments'],
  ['retrievePayment', 'GET', '/merchant/v1/payments/{paymentId}'],
  ['refundPayment', 'POST', '/merchant/v1/payments/{paymentId}/refund'],
  ['cancelPayment', 'POST', undefined],
  ['createPayout', 'POST', '/merchant/v1/payouts'],
  ['listPayouts', 'GET', undefined],
  ['retrievePayout', 'GET', '/merchant/v1/payouts/{payoutId}'],
  ['cancelPayout', 'POST', undefined],
  ['createAppeal', 'POST', '/merchant/v1/appeals'],
  ['listAppeals', 'GET', undefined],
  ['retrieveAppeal', 'GET', '/merchant/v1/appeals/{appealId}'],
  ['cancelAppeal', 'POST', '/merchant/v1/appeals/{appealId}/cancel'],
  ['retrieveBalance', 'GET', undefined],
];

describe('section 4: endpoints', () => {
  it.each([
    [a, VARIANT_A],
    [b, VARIANT_B],
  ] as const)(
    '%#: every operation the source names exists with its method, stated path, and nothing else',
    (spec, table) => {
      for (const [operationId, method, path] of table) {
        const found = op(spec, operationId);
        expect(found.method, operationId).toBe(method);
        if (path) {
          expect(found.path, operationId).toBe(path);
          expect(found.node['x-provenance'], `${operationId}: its path is stated`).not.toBe('assumed');
        } else {
          expect(spec.isAssumed(found.node), `${operationId}: its path is not shown, so it is assumed`).toBe(true);
        }
      }
      expect(
        spec
          .operations()
          .map((o) => o.operationId)
          .sort(),
      ).toEqual(table.map(([id]) => id).sort());
    },
  );

  it('Confirm Payment exists in Variant A only', () => {
    expect(a.operation('confirmPayment')).toBeDefined();
    expect(b.operation('confirmPayment')).toBeUndefined();
    expect(b.operations().some((o) => o.path.endsWith('/confirm'))).toBe(false);
  });

  it('Variant A confirm: path parameter id, Idempotency-Key, JSON body of reference and receipt.url/name', () => {
    const confirm = op(a, 'confirmPayment');
    const params = a.parameters(confirm).map((p) => `${p.in}:${p.name}`);
    expect(params).toEqual(expect.arrayContaining(['path:id', 'header:Idempotency-Key']));
    const body = a.requestBody(confirm)!;
    expect(Object.keys(body.content)).toEqual(['application/json']);
    expectFields(a, a.bodySchema(body)!, {
      reference: 'string',
      receipt: 'object',
      'receipt.url': 'string',
      'receipt.name': 'string',
    });
    expect(names(a, a.bodySchema(body))).toEqual(['receipt', 'reference']);
  });

  it('Variant B: path parameters are paymentId, payoutId and appealId', () => {
    const expected: Record<string, string> = { payments: 'paymentId', payouts: 'payoutId', appeals: 'appealId' };
    for (const operation of b.operations()) {
      const resource = operation.path.split('/')[3]!;
      const pathParams = b
        .parameters(operation)
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      const expectedParams = operation.path.includes('{') ? [expected[resource]] : [];
      expect(pathParams, operation.path).toEqual(expectedParams);
      expect(operation.path.startsWith('/merchant/v1/'), operation.path).toBe(true);
    }
  });

  it('Variant A: no path carries a prefix or version segment', () => {
    for (const operation of a.operations())
      expect(operation.path).toMatch(/^\/(payments|payouts|appeals|balance)(\/|$)/);
  });

  it.each([
    [
      b,
      'createPayment',
      {
        amount: 'string',
        amount_tolerance_up: 'string',
        currency: 'string',
        expires_in: 'integer',
        'requisite.type': 'string',
        'requisite.bank': 'string',
        'customer.fingerprint': 'string',
        'customer.ip_address': 'string',
        'customer.user_agent': 'string',
        metadata: 'object',
      },
    ],
    [
      b,
      'createPayout',
      {
        amount: 'string',
        currency: 'string',
        expires_in: 'integer',
        'requisite.type': 'string',
        'requisite.card_number': 'string',
        'requisite.card_holder': 'string',
        'requisite.bank': 'string',
        'customer.fingerprint': 'string',
        'customer.ip_address': 'string',
        'customer.user_agent': 'string',
        metadata: 'object',
      },
    ],
    [b, 'createAppeal', { transaction_id: 'string', amount: 'string', currency: 'string', metadata: 'object' }],
  ] as const)('Variant B %s body has exactly the stated fields and types', (spec, operationId, fields) => {
    const body = spec.bodySchema(spec.requestBody(op(spec, operationId)))!;
    expectFields(spec, body, fields);
    const topLevel = [...new Set(Object.keys(fields).map((f) => f.split('.')[0]!))].sort();
    expect(names(spec, body)).toEqual(topLevel);
  });

  it('Variant B refund, appeal cancel and every GET take no request body', () => {
    for (const id of [
      'refundPayment',
      'cancelAppeal',
      ...b
        .operations()
        .filter((o) => o.method === 'GET')
        .map((o) => o.operationId),
    ]) {
      expect(op(b, id).node.requestBody, id).toBeUndefined();
    }
  });

  it('Variant A List Payments takes only the Authorization header besides its (assumed) query parameters', () => {
    const list = op(a, 'listPayments');
    const headers = a.parameters(list).filter((p) => p.in === 'header');
    expect(headers).toEqual([]);
    for (const query of a.parameters(list).filter((p) => p.in === 'query'))
      expect(a.isAssumed(query.value), query.name).toBe(true);
    expect(list.node.security ?? a.doc.security).toEqual([{ bearerAuth: [] }]);
  });

  it.each([
    [a, ['confirmPayment']],
    [b, ['createPayment', 'refundPayment', 'createPayout', 'createAppeal']],
  ] as const)('%#: Idempotency-Key is on the requests the source shows it on', (spec, stated) => {
    for (const id of stated) {
      expect(
        spec.parameters(op(spec, id)).map((p) => `${p.in}:${p.name}`),
        id,
      ).toContain('header:Idempotency-Key');
    }
  });

  it.each(variants)('$label: list operations take bounded limit and offset', (spec) => {
    for (const list of spec.operations().filter((o) => o.operationId.startsWith('list'))) {
      const query = Object.fromEntries(
        spec
          .parameters(list)
          .filter((p) => p.in === 'query')
          .map((p) => [p.name, spec.resolve(p.value.schema)]),
      );
      expect(query.limit, list.operationId).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
      expect(query.offset, list.operationId).toMatchObject({ type: 'integer', minimum: 0 });
      expect(typeof query.offset!.maximum, `${list.operationId}: offset has an upper bound`).toBe('number');
    }
  });
});

describe('section 5: authentication', () => {
  it('Variant A uses an http bearer scheme on every operation', () => {
    expect(a.doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    for (const operation of a.operations())
      expect(operation.node.security ?? a.doc.security, operation.operationId).toEqual([{ bearerAuth: [] }]);
  });

  it('Variant B requires X-Public-Key and X-Secret-Key together in one requirement on every operation', () => {
    const schemes = b.doc.components.securitySchemes as Node;
    expect(schemes.publicKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Public-Key' });
    expect(schemes.secretKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Secret-Key' });
    for (const operation of b.operations()) {
      expect(operation.node.security ?? b.doc.security, operation.operationId).toEqual([
        { publicKey: [], secretKey: [] },
      ]);
    }
  });
});

describe('section 6: the onStatusChange webhook', () => {
  const later = (spec: BundledSpec) => op(spec, 'onStatusChange');
  const earlier = (spec: BundledSpec) => op(spec, 'onStatusChangeEarlier');
  const headers = (spec: BundledSpec, o: Operation) =>
    spec
      .parameters(o)
      .filter((p) => p.in === 'header')
      .map((p) => p.name)
      .sort();

  it.each(variants)('$label: both layouts are POST webhooks, the earlier one deprecated', (spec) => {
    expect(
      spec
        .webhooks()
        .map((w) => `${w.method} ${w.operationId}`)
        .sort(),
    ).toEqual(['POST onStatusChange', 'POST onStatusChangeEarlier']);
    expect(earlier(spec).node.deprecated).toBe(true);
    expect(later(spec).node.deprecated).toBeFalsy();
  });

  it.each(variants)(
    '$label: the later layout sends the five headers and the earlier one has no X-Timestamp',
    (spec) => {
      expect(headers(spec, later(spec))).toEqual([
        'User-Agent',
        'X-Event-ID',
        'X-Event-Type',
        'X-Signature',
        'X-Timestamp',
      ]);
      expect(headers(spec, earlier(spec))).toEqual(['User-Agent', 'X-Event-ID', 'X-Event-Type', 'X-Signature']);
      for (const o of [later(spec), earlier(spec)])
        expect(Object.keys(spec.requestBody(o)!.content)).toEqual(['application/json']);
    },
  );

  it.each(variants)('$label: later-layout payment data has the Variant A confirm shape', (spec) => {
    const event = { $ref: '#/components/schemas/PaymentStatusChangedEvent' };
    expectFields(spec, event, { id: 'string', type: 'string', created_at: 'string', data: 'object' });
    const data = spec.field(event, 'data')!;
    expectFields(spec, data, {
      ...PAYMENT_COMMON,
      reason_code: 'string',
      finalized_at: 'string',
      'requisite.card': 'string',
      'requisite.holder': 'string',
    });
    expect(names(spec, spec.field(data, 'requisite'))).toEqual(CONFIRM_REQUISITE);
    expect(spec.field(data, 'updated_at')).toBeUndefined();
    const later_ = spec.bodySchema(spec.requestBody(later(spec)))!;
    expect(spec.resolve(later_).oneOf.map((m: Node) => spec.refName(m))).toContain('PaymentStatusChangedEvent');
  });

  it.each(variants)('$label: earlier-layout data has the create-payment request shape', (spec) => {
    const body = spec.bodySchema(spec.requestBody(earlier(spec)))!;
    expectFields(spec, body, { id: 'string', type: 'string', created_at: 'string', data: 'object' });
    expectFields(spec, spec.field(body, 'data')!, {
      amount: 'string',
      amount_tolerance_up: 'string',
      currency: 'string',
      expires_in: 'integer',
      'requisite.type': 'string',
      'requisite.bank': 'string',
      'customer.fingerprint': 'string',
      'customer.ip_address': 'string',
      'customer.user_agent': 'string',
      metadata: 'object',
    });
    expect(names(spec, spec.field(spec.field(body, 'data'), 'requisite'))).toEqual(['bank', 'type']);
  });

  it.each(variants)(
    '$label: the earlier-layout body accepts only payment.status_changed, the one type its data fits',
    (spec) => {
      const schema = spec.expand(spec.bodySchema(spec.requestBody(earlier(spec)))) as Node;
      const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
      const example = (
        Object.values(
          spec.expand(spec.requestBody(earlier(spec))!.content['application/json'].examples) as Node,
        )[0] as Node
      ).value as Node;
      expect(example.type).toBe('payment.status_changed');
      expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      for (const type of ['payout.status_changed', 'appeal.status_changed']) {
        expect(validate({ ...example, type }), type).toBe(false);
        expect(validate.errors?.map((e) => e.instancePath)).toContain('/type');
      }
    },
  );

  it.each(variants)('$label: the receiver answers 200 with a JSON object, {} in the example', (spec) => {
    for (const o of [later(spec), earlier(spec)]) {
      const ok = spec.expand(spec.response(o, '200')) as Node;
      const json = ok.content['application/json'];
      expect(spec.types(json.schema)).toContain('object');
      expect(Object.values(json.examples as Node).map((e: Node) => e.value)).toContainEqual({});
    }
  });
});

describe('section 7: errors', () => {
  const codes = (spec: BundledSpec, id: string) => Object.keys(op(spec, id).node.responses);

  it.each(variants)('$label: every operation lists 200 and 401', (spec) => {
    for (const o of spec.operations())
      expect(codes(spec, o.operationId), o.operationId).toEqual(expect.arrayContaining(['200', '401']));
  });

  it.each(variants)('$label: every retrieve, list, refund, cancel and confirm lists 404', (spec) => {
    for (const o of spec
      .operations()
      .filter(
        (x) => /^(retrieve|list|refund|cancel|confirm)/.test(x.operationId) && x.operationId !== 'retrieveBalance',
      )) {
      expect(codes(spec, o.operationId), o.operationId).toContain('404');
    }
  });

  it('400 on Variant B refund; 422 on Variant A confirm and Variant B appeal cancel', () => {
    expect(codes(b, 'refundPayment')).toContain('400');
    expect(codes(a, 'confirmPayment')).toContain('422');
    expect(codes(b, 'cancelAppeal')).toContain('422');
  });

  it.each(variants)('$label: codes the source does not list on a stated operation are marked assumed', (spec) => {
    const stated = (o: Operation) => {
      const set = new Set(['200', '401']);
      if (/^(retrieve|list|refund|cancel|confirm)/.test(o.operationId) && o.operationId !== 'retrieveBalance')
        set.add('404');
      if (spec === b && o.operationId === 'refundPayment') set.add('400');
      if ((spec === a && o.operationId === 'confirmPayment') || (spec === b && o.operationId === 'cancelAppeal'))
        set.add('422');
      return set;
    };
    // Note: an operation that is assumed as a whole (path not shown) is assumed in every response too.
    for (const o of spec.operations().filter((x) => !spec.isAssumed(x.node))) {
      const extra = codes(spec, o.operationId)
        .filter((c) => !stated(o).has(c))
        .sort();
      const marked = [...((o.node['x-assumed-responses'] ?? []) as string[])].sort();
      expect(marked, `${o.operationId}: x-assumed-responses`).toEqual(expect.arrayContaining(extra));
    }
  });
});

describe('the base address', () => {
  it.each(variants)(
    '$label: keeps the stated {base_url}, lists first a literal https URL, and the local sandbox, each marked assumed',
    (spec) => {
      const servers = spec.doc.servers as Node[];
      expect(servers.map((s) => s.url)).toContain('https://{base_url}');
      expect(servers[0]!.url).toMatch(/^https:\/\/[^{}]+$/);
      expect(servers[0]!['x-provenance']).toBe('assumed');
      // Every server is https but the local sandbox's, on the loopback interface, which is this project's own.
      const local = servers.filter((s) => !s.url.startsWith('https://'));
      expect(local.map((s) => s.url)).toEqual(['http://127.0.0.1:4020']);
      expect(local[0]!['x-provenance']).toBe('assumed');
      expect(local[0]!.description).toMatch(/sandbox/);
      expect(local[0]!.description).toMatch(/Not part of the source/);
    },
  );
});

describe('section 9: versioning', () => {
  it('Variant B paths carry /merchant/v1 and Variant A paths carry no version segment', () => {
    expect(b.operations().every((o) => o.path.startsWith('/merchant/v1/'))).toBe(true);
    expect(a.operations().some((o) => /\/v\d+(\/|$)/.test(o.path))).toBe(false);
  });
});
