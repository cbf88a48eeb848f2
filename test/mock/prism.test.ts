// Mock smoke test: Prism (with --errors) serves each bundled spec, enforces auth and validates bodies.
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrism, type PrismServer } from '../../packages/cli/src/mock/prism.js';
import { root } from '../../scripts/lib/tools.mjs';
import { BundledSpec, type Node } from '../contract/bundled-spec.js';
import { closeProbes, probe, trickledBody } from '../shared/probe.js';

const variants: { spec: BundledSpec; credentials: Record<string, string>; prefix: string }[] = [
  {
    spec: await BundledSpec.open('Variant A', 'variant-a'),
    credentials: { Authorization: 'Bearer test-token' },
    prefix: '',
  },
  {
    spec: await BundledSpec.open('Variant B', 'variant-b'),
    credentials: { 'X-Public-Key': 'pk_test_123', 'X-Secret-Key': 'sk_test_456' },
    prefix: '/merchant/v1',
  },
];

/** The first named example of an operation's response, as Prism serves it by default. */
function firstExample(spec: BundledSpec, operationId: string, code: string): unknown {
  const response = spec.expand(spec.response(spec.operation(operationId)!, code)) as Node;
  const examples = Object.values(response.content['application/json'].examples as Node) as Node[];
  return examples[0]!.value;
}

/** A request body the contract accepts, taken from the spec's own example. */
function exampleBody(spec: BundledSpec, operationId: string): Node {
  const body = spec.expand(spec.requestBody(spec.operation(operationId)!)) as Node;
  return structuredClone((Object.values(body.content['application/json'].examples as Node)[0] as Node).value);
}

describe.each(variants)('Prism mock of $spec.label', ({ spec, credentials, prefix }) => {
  let server: PrismServer;
  beforeAll(async () => {
    server = await startPrism({ spec: path.join(root, spec.file), port: await getPort(), errors: true });
  });
  afterAll(async () => {
    await server?.stop();
    // The pid we started is gone: signal 0 to it fails with ESRCH.
    expect(() => process.kill(server.pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });

  const listUrl = () => `${server.url}${prefix}/payments`;

  it('answers 401 with a problem+json body when credentials are missing', async () => {
    const response = await fetch(listUrl());
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 401, code: expect.any(String) });
  });

  it('answers 200 with the spec example when credentials are present', async () => {
    const response = await fetch(listUrl(), { headers: credentials });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(firstExample(spec, 'listPayments', '200'));
  });

  it('accepts the example create-payment body and returns the example payment', async () => {
    const response = await fetch(listUrl(), {
      method: 'POST',
      headers: { ...credentials, 'Content-Type': 'application/json', 'Idempotency-Key': 'smoke-1' },
      body: JSON.stringify(exampleBody(spec, 'createPayment')),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(firstExample(spec, 'createPayment', '200'));
  });

  it('answers 422 with problem+json to an invalid create-payment body, naming the violation', async () => {
    const body = { ...exampleBody(spec, 'createPayment'), amount: 15.5, unexpected: true };
    const response = await fetch(listUrl(), {
      method: 'POST',
      headers: { ...credentials, 'Content-Type': 'application/json', 'Idempotency-Key': 'smoke-2' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ status: 422 });
    const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]') as {
      location: string[];
      message: string;
    }[];
    expect(violations.map((v) => v.message)).toEqual(
      expect.arrayContaining([
        'Request body property amount must be string',
        "Request body must NOT have additional properties; found 'unexpected'",
      ]),
    );
  });
});

describe("Prism's server, through the time-outs preload", () => {
  let server: PrismServer;
  beforeAll(async () => {
    const timeouts = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 300 };
    server = await startPrism({
      spec: path.join(root, variants[0]!.spec.file),
      port: await getPort(),
      errors: true,
      timeouts,
    });
  });
  afterAll(async () => {
    closeProbes();
    await server?.stop();
  });

  it('closes a connection that sends nothing, and cuts a trickled body with a 408 within a second or two', async () => {
    const silent = await probe(server.port);
    expect(silent.ms).toBeGreaterThanOrEqual(250);
    expect((await probe(server.port, trickledBody)).answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
