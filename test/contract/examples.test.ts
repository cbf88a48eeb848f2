// Named examples: every request body and response has one, and together they tell one consistent story
// (the payment created is the one retrieved, confirmed, listed, refunded and sent in the webhook).
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { BundledSpec, type Node } from './bundled-spec.js';

const variants = [await BundledSpec.open('Variant A', 'variant-a'), await BundledSpec.open('Variant B', 'variant-b')];

/** Every example value of a bundled spec with where it sits, `$ref`s expanded. */
function exampleValues(spec: BundledSpec): { pointer: string; value: unknown }[] {
  const found: { pointer: string; value: unknown }[] = [];
  for (const op of [...spec.operations(), ...spec.webhooks()]) {
    const bodies: [string, Node | undefined][] = [['request', spec.requestBody(op)]];
    for (const code of Object.keys(op.node.responses ?? {})) bodies.push([code, spec.response(op, code)]);
    for (const [where, body] of bodies) {
      const examples = spec.expand(
        body?.content?.['application/json']?.examples ?? body?.content?.['application/problem+json']?.examples ?? {},
      ) as Node;
      for (const [name, example] of Object.entries(examples))
        found.push({ pointer: `${op.operationId} ${where} ${name}`, value: (example as Node).value });
    }
  }
  return found;
}

/** Objects inside example values that carry an `id` with one of the prefixes, grouped by id. */
function objectsById(spec: BundledSpec, prefix: RegExp): Map<string, { pointer: string; object: Node }[]> {
  const groups = new Map<string, { pointer: string; object: Node }[]>();
  const visit = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => visit(item, `${pointer}/${i}`));
    if (node === null || typeof node !== 'object') return;
    const object = node as Node;
    if (typeof object.id === 'string' && prefix.test(object.id)) {
      groups.set(object.id, [...(groups.get(object.id) ?? []), { pointer, object }]);
    }
    for (const [key, value] of Object.entries(object)) visit(value, `${pointer}/${key}`);
  };
  for (const { pointer, value } of exampleValues(spec)) visit(value, pointer);
  return groups;
}

/** The requisite in one shape whichever shape it was written in (confirm shape: card/holder). */
const requisite = (r: Node | undefined) =>
  r && { type: r.type, bank: r.bank, card: r.card_number ?? r.card, holder: r.card_holder ?? r.holder };

const seconds = (timestamp: string) => Date.parse(timestamp) / 1000;

describe.each(variants)('examples of $label', (spec) => {
  it('every request body and every response with content has a named example', () => {
    for (const op of [...spec.operations(), ...spec.webhooks()]) {
      const bodies: [string, Node | undefined][] = [['request body', spec.requestBody(op)]];
      for (const code of Object.keys(op.node.responses ?? {}))
        bodies.push([`response ${code}`, spec.response(op, code)]);
      for (const [where, body] of bodies) {
        for (const [mediaType, content] of Object.entries((body?.content ?? {}) as Node)) {
          expect(
            Object.keys(spec.resolve(content as Node).examples ?? {}).length,
            `${op.operationId} ${where} ${mediaType}`,
          ).toBeGreaterThan(0);
        }
      }
    }
  });

  it.each([
    ['payment', /^pay_/, ['type', 'requested', 'created_at', 'expires_at', 'metadata']],
    ['payout', /^po_/, ['type', 'requested', 'created_at', 'expires_at', 'metadata']],
    ['appeal', /^apl_/, ['appeal_id', 'requested', 'created_at', 'metadata', 'attachments']],
  ] as const)(
    'each %s keeps its identity fields and requisite in every example that shows it',
    (_kind, prefix, fields) => {
      const groups = objectsById(spec, prefix);
      // Note: lists show other objects too; the object the create example returns is the one every other operation shows.
      const [mainId, mainViews] = [...groups].sort(([, x], [, y]) => y.length - x.length)[0]!;
      expect(mainViews.length, `${mainId} appears in several operations`).toBeGreaterThan(2);
      for (const [id, views] of groups) {
        const [first] = views;
        for (const { pointer, object } of views) {
          for (const field of fields) {
            if (field in object) expect(object[field], `${id}.${field} at ${pointer}`).toEqual(first!.object[field]);
          }
          if (object.requisite)
            expect(requisite(object.requisite), `${id}.requisite at ${pointer}`).toEqual(
              requisite(first!.object.requisite),
            );
          for (const later of ['updated_at', 'finalized_at'] as const) {
            if (object[later])
              expect(seconds(object[later]), `${id}.${later} at ${pointer}`).toBeGreaterThanOrEqual(
                seconds(object.created_at),
              );
          }
        }
      }
    },
  );

  // Note: mocks that build values from schemas (Prism's dynamic mode, MSW, fakers) read `schema.examples`, not the header's own `example`.
  it('every response header carries examples on its schema, and they fit it', () => {
    const headers = Object.entries(spec.doc.components.headers as Node);
    expect(headers.map(([name]) => name)).toEqual(expect.arrayContaining(['RateLimit', 'RateLimitPolicy']));
    for (const [name, header] of headers) {
      const schema = spec.expand((header as Node).schema) as Node;
      expect(schema.examples, name).toEqual([expect.anything()]);
      expect(new Ajv2020({ strict: false }).validate(schema, schema.examples[0]), name).toBe(true);
    }
  });

  it('each path parameter has an example id of the resource its path names', () => {
    const prefixes: Record<string, RegExp> = { payments: /^pay_/, payouts: /^po_/, appeals: /^apl_/ };
    const components = new Map<string, string>();
    const withId = spec.operations().filter((o) => o.path.includes('{'));
    expect(withId.length).toBeGreaterThan(0);
    for (const op of withId) {
      const resource = op.path.split('/').find((segment) => segment in prefixes)!;
      for (const parameter of spec.parameters(op).filter((p) => p.in === 'path')) {
        expect(parameter.value.example, `${op.operationId} ${parameter.name}`).toMatch(prefixes[resource]!);
        expect(components.get(parameter.component!) ?? resource, `${parameter.component} serves one resource`).toBe(
          resource,
        );
        components.set(parameter.component!, resource);
      }
    }
  });

  it.each([
    ['retrievePayment', 'PaymentStatus'],
    ['retrievePayout', 'PayoutStatus'],
    ['retrieveAppeal', 'AppealStatus'],
  ])('%s has a named example for every status in %s', (operationId, statusSchema) => {
    const examples = spec.expand(
      spec.response(spec.operation(operationId)!, '200')!.content['application/json'].examples,
    ) as Node;
    const statuses = Object.entries(examples).map(([name, example]) => {
      const status = (example as Node).value.data.status as string;
      expect(name, 'the name says the status').toMatch(new RegExp(`_${status}$`));
      return status;
    });
    expect([...statuses].sort()).toEqual([...(spec.doc.components.schemas[statusSchema].enum as string[])].sort());
  });

  it('List Payments has a page of several payments and a second page', () => {
    const examples = spec.expand(
      spec.response(spec.operation('listPayments')!, '200')!.content['application/json'].examples,
    ) as Node;
    const pages = Object.values(examples).map((e) => (e as Node).value as Node);
    const [first, second] = pages;
    expect(first!.data.length).toBeGreaterThan(2);
    expect(first!.pagination).toEqual({ total: first!.data.length, limit: 20, offset: 0 });
    expect(second!.pagination.offset).toBeGreaterThan(0);
    expect(second!.pagination.offset + second!.data.length).toBe(second!.pagination.total);
    for (const page of pages) {
      const created = page.data.map((p: Node) => seconds(p.created_at));
      expect(created, 'newest first').toEqual([...created].sort((x, y) => y - x));
    }
    expect(new Set(pages.flatMap((p) => p.data.map((item: Node) => item.id))).size).toBe(
      first!.data.length + second!.data.length,
    );
  });

  it('the create requests match the objects they create', () => {
    const created = (id: string) =>
      (spec.expand(spec.response(spec.operation(id)!, '200')) as Node).content['application/json'].examples;
    const request = (id: string) =>
      (
        Object.values(
          spec.expand(spec.requestBody(spec.operation(id)!)!.content['application/json'].examples) as Node,
        )[0] as Node
      ).value as Node;
    const first = (examples: Node) => (Object.values(examples)[0] as Node).value.data as Node;

    const payment = first(created('createPayment'));
    const paymentRequest = request('createPayment');
    expect(payment.requested).toEqual({ amount: paymentRequest.amount, currency: paymentRequest.currency });
    expect({ type: payment.requisite.type, bank: payment.requisite.bank }).toEqual(paymentRequest.requisite);
    expect(payment.metadata).toEqual(paymentRequest.metadata);
    expect(seconds(payment.expires_at) - seconds(payment.created_at)).toBe(paymentRequest.expires_in);

    const payout = first(created('createPayout'));
    const payoutRequest = request('createPayout');
    expect(payout.requested).toEqual({ amount: payoutRequest.amount, currency: payoutRequest.currency });
    expect([payout.requisite.bank, payout.requisite.card_holder]).toEqual([
      payoutRequest.requisite.bank,
      payoutRequest.requisite.card_holder,
    ]);
    expect(seconds(payout.expires_at) - seconds(payout.created_at)).toBe(payoutRequest.expires_in);

    const appeal = first(created('createAppeal'));
    const appealRequest = request('createAppeal');
    expect(appealRequest.transaction_id).toBe(payment.id);
    expect(appeal.requested).toEqual({ amount: appealRequest.amount, currency: appealRequest.currency });
    expect(appeal.metadata).toEqual(appealRequest.metadata);
  });

  it('the earlier webhook layout sends the create-payment request of the same payment', () => {
    const earlier = spec.webhooks().find((w) => w.operationId === 'onStatusChangeEarlier')!;
    const event = (
      Object.values(spec.expand(spec.requestBody(earlier)!.content['application/json'].examples) as Node)[0] as Node
    ).value as Node;
    const paymentRequest = (
      Object.values(
        spec.expand(spec.requestBody(spec.operation('createPayment')!)!.content['application/json'].examples) as Node,
      )[0] as Node
    ).value;
    expect(event.data).toEqual(paymentRequest);
  });

  it('each webhook example names its event in X-Event-ID form and its type matches its data', () => {
    const later = spec.webhooks().find((w) => w.operationId === 'onStatusChange')!;
    const events = Object.values(
      spec.expand(spec.requestBody(later)!.content['application/json'].examples) as Node,
    ).map((e) => (e as Node).value as Node);
    const prefixes: Record<string, RegExp> = {
      'payment.status_changed': /^pay_/,
      'payout.status_changed': /^po_/,
      'appeal.status_changed': /^apl_/,
    };
    expect(events.map((e) => e.type).sort()).toEqual(Object.keys(prefixes).sort());
    for (const event of events) {
      expect(event.id).toMatch(/^evt_/);
      expect(event.data.id, event.type).toMatch(prefixes[event.type]!);
      expect(seconds(event.created_at)).toBeGreaterThanOrEqual(seconds(event.data.created_at));
    }
  });
});
