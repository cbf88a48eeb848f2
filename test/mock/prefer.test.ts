// The mock's answers: Prism (with --errors, so an example that breaks its schema fails) serves every
// named example on request, and docs/mock.md lists every name and what Prism does instead of the service. The mocks
// are the ones the global setup started for this run (test/client/global-setup.ts), with the same options.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { validateResponse } from '../../packages/contract/src/validation/index.js';
import { root } from '../../scripts/lib/tools.mjs';
import { BundledSpec, type Node, type Operation } from '../contract/bundled-spec.js';

const variants: { spec: BundledSpec; variant: 'A' | 'B'; credentials: Record<string, string> }[] = [
  {
    spec: await BundledSpec.open('Variant A', 'variant-a'),
    variant: 'A',
    credentials: { Authorization: 'Bearer test-token' },
  },
  {
    spec: await BundledSpec.open('Variant B', 'variant-b'),
    variant: 'B',
    credentials: { 'X-Public-Key': 'pk_test_123', 'X-Secret-Key': 'sk_test_456' },
  },
];

/** Every named example of every response of every operation: [operation, status, name, value]. */
function namedExamples(spec: BundledSpec): [Operation, string, string, unknown][] {
  const found: [Operation, string, string, unknown][] = [];
  for (const op of spec.operations()) {
    for (const code of Object.keys(op.node.responses)) {
      const content = (spec.expand(spec.response(op, code)) as Node).content as Node;
      for (const media of Object.values(content)) {
        for (const [name, example] of Object.entries((media as Node).examples as Node))
          found.push([op, code, name, (example as Node).value]);
      }
    }
  }
  return found;
}

/** A request the contract accepts for `op`, built from the spec's own parameter and body examples. */
function validRequest(
  spec: BundledSpec,
  op: Operation,
  credentials: Record<string, string>,
): { url: string; init: RequestInit } {
  let url = op.path;
  const headers: Record<string, string> = { ...credentials };
  for (const parameter of spec.parameters(op)) {
    if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, String(parameter.value.example));
    if (parameter.in === 'header' && parameter.value.required)
      headers[parameter.name] = String(parameter.value.example);
  }
  const body = spec.requestBody(op);
  if (!body) return { url, init: { method: op.method, headers } };
  const example = (Object.values(spec.expand(body.content['application/json'].examples) as Node)[0] as Node).value;
  return {
    url,
    init: {
      method: op.method,
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify(example),
    },
  };
}

describe.each(variants)(
  'Prism mock of $spec.label answers with the example asked for',
  ({ spec, variant, credentials }) => {
    const server = { url: inject('mockUrls')[variant] };

    it('serves every named example of every operation with its status, as written', async () => {
      const examples = namedExamples(spec);
      expect(examples.length).toBeGreaterThan(100);
      for (const [op, code, name, value] of examples) {
        const { url, init } = validRequest(spec, op, credentials);
        const response = await fetch(`${server.url}${url}`, {
          ...init,
          headers: { ...(init.headers as object), Prefer: `code=${code}, example=${name}` },
        });
        const what = `${op.operationId} ${code} ${name}`;
        expect(response.status, what).toBe(Number(code));
        expect(await response.json(), what).toEqual(value);
      }
    });

    it('answers retrievePayment with the status asked for, and the first example without Prefer', async () => {
      const op = spec.operation('retrievePayment')!;
      const { url, init } = validRequest(spec, op, credentials);
      const get = async (prefer?: string) =>
        (await (
          await fetch(`${server.url}${url}`, {
            ...init,
            headers: { ...(init.headers as object), ...(prefer ? { Prefer: prefer } : {}) },
          })
        ).json()) as Node;
      expect((await get()).data.status).toBe('pending');
      for (const status of ['created', 'succeeded', 'failed', 'expired', 'canceled', 'refunded']) {
        expect((await get(`example=payment_${status}`)).data.status).toBe(status);
      }
      expect((await get('example=payment_failed')).data.reason_code).toBe(
        spec === variants[0]!.spec ? 'declined' : undefined,
      );
    });

    it('serves the second page of payments on request', async () => {
      const { url, init } = validRequest(spec, spec.operation('listPayments')!, credentials);
      const response = await fetch(`${server.url}${url}`, {
        ...init,
        headers: { ...(init.headers as object), Prefer: 'example=payments_second_page' },
      });
      expect(((await response.json()) as Node).pagination).toEqual({ total: 22, limit: 20, offset: 20 });
    });

    // The two answers below are Prism's, not the service's; docs/mock.md says so and this keeps it true.
    it('answers a missing Idempotency-Key with its canned 422, the violation only in sl-violations', async () => {
      const { url, init } = validRequest(spec, spec.operation('createPayment')!, credentials);
      const headers = { ...(init.headers as Record<string, string>) };
      delete headers['Idempotency-Key'];
      const response = await fetch(`${server.url}${url}`, { ...init, headers });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ code: 'validation_failed', errors: [{ pointer: '/amount' }] });
      expect(response.headers.get('sl-violations')).toContain('idempotency-key');

      const asked = await fetch(`${server.url}${url}`, {
        ...init,
        headers: { ...(init.headers as object), Prefer: 'code=400, example=idempotency_key_missing' },
      });
      expect(asked.status).toBe(400);
      expect(await asked.json()).toMatchObject({ status: 400, code: 'idempotency_key_missing' });
    });

    it('answers any invalid body with the same canned 422 body', async () => {
      const { url, init } = validRequest(spec, spec.operation('createPayment')!, credentials);
      const body = { ...JSON.parse(init.body as string), currency: 'euro' };
      const response = await fetch(`${server.url}${url}`, { ...init, body: JSON.stringify(body) });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ code: 'validation_failed', errors: [{ pointer: '/amount' }] });
      expect(response.headers.get('sl-violations')).toContain('currency');
    });

    // Note: Prism's server answers this itself, outside the contract; the mock's preload (problem-preload.js) puts the
    // contract's answer in its place.
    it("answers malformed JSON with the contract's 400 bad_request problem", async () => {
      const { url, init } = validRequest(spec, spec.operation('createPayment')!, credentials);
      const response = await fetch(`${server.url}${url}`, { ...init, body: '{"amount":' });
      const body: unknown = await response.json();
      expect([response.status, response.headers.get('content-type')]).toEqual([400, 'application/problem+json']);
      expect(body).toMatchObject({ status: 400, code: 'bad_request' });
      const api = variant === 'A' ? 'a' : 'b';
      expect(validateResponse(api, 'createPayment', { status: 400, headers: response.headers, body })).toEqual([]);
    });

    // Note: Prism answers the operation's 422 example here, naming a field that is right; the preload puts the
    // contract's 400 in its place, with the sandbox's detail.
    it("answers a JSON body sent as text/plain with the contract's 400 bad_request problem naming Content-Type", async () => {
      const { url, init } = validRequest(spec, spec.operation('createPayment')!, credentials);
      const headers = { ...(init.headers as Record<string, string>), 'Content-Type': 'text/plain' };
      const response = await fetch(`${server.url}${url}`, { ...init, headers });
      const body: unknown = await response.json();
      expect([response.status, response.headers.get('content-type')]).toEqual([400, 'application/problem+json']);
      expect(body).toMatchObject({
        status: 400,
        code: 'bad_request',
        detail: 'Header "Content-Type" must be application/json, not text/plain.',
      });
      const api = variant === 'A' ? 'a' : 'b';
      expect(validateResponse(api, 'createPayment', { status: 400, headers: response.headers, body })).toEqual([]);
    });
  },
);

describe('docs/mock.md', () => {
  const doc = readFileSync(path.join(root, 'docs/mock.md'), 'utf8');

  it.each(variants)('lists every example name of $spec.label, success names in its operation row', ({ spec }) => {
    for (const [op, code, name] of namedExamples(spec)) {
      if (code === '200') {
        const row = doc.split('\n').find((line) => line.startsWith(`| \`${op.operationId}\``));
        expect(row, op.operationId).toContain(`\`${name}\``);
      } else {
        const row = doc.split('\n').find((line) => line.startsWith(`| \`${code}\``));
        expect(row, `${op.operationId} ${code}`).toContain(`\`${name}\``);
      }
    }
  });
});
