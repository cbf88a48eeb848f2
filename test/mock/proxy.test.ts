// Checking a real server against the contract: merchant-payments-mock --upstream puts Prism's validating proxy in front of it.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectOutput, spawnTiedNode, stopChild } from '../../packages/contract/src/shared/children.js';
import { root } from '../../scripts/lib/tools.mjs';
import { BundledSpec, type Node } from '../contract/bundled-spec.js';
import { fromSource } from './processes.js';

/** The mock command's source, run with tsx (the packed bin runs its build: test/package/tarball.test.ts). */
const command = path.join(root, 'packages/cli/src/mock/command.ts');
const spec = await BundledSpec.open('Variant B', 'variant-b');
const credentials = { 'X-Public-Key': 'pk_live_1', 'X-Secret-Key': 'sk_live_1' };
const example = (spec.expand(spec.doc.paths['/merchant/v1/payments/{paymentId}'].get.responses['200']) as Node).content[
  'application/json'
].examples;
const payment = (Object.values(example)[0] as Node).value as { data: Record<string, unknown> };

/** A stand-in for a real server: answers the contract's payment, or a payment that breaks it. */
function startServer() {
  const seen: string[] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    const body = structuredClone(payment);
    if (req.url?.endsWith('/pay_broken')) {
      body.data['requested'] = { amount: 15, currency: 'EUR' };
      delete body.data['status'];
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  return { server, seen };
}

describe('merchant-payments-mock --upstream', () => {
  const upstream = startServer();
  let proxy: ChildProcess;
  let url: string;

  beforeAll(async () => {
    upstream.server.listen(0, '127.0.0.1');
    await once(upstream.server, 'listening');
    const target = `http://127.0.0.1:${(upstream.server.address() as AddressInfo).port}`;
    const port = await getPort();
    proxy = spawnTiedNode(command, ['--variant', 'b', '--port', String(port), '--upstream', target], {
      nodeArgs: fromSource,
    });
    const output = collectOutput(proxy);
    url = await new Promise<string>((resolve, reject) => {
      proxy.stdout?.on('data', (chunk: Buffer) => {
        const match = /listening on (http:\/\/\S+) \(checking (\S+) against the contract\)/.exec(chunk.toString());
        if (match?.[1] && match[2] === target) resolve(match[1]);
      });
      proxy.once('exit', (code) => reject(new Error(`the proxy exited (${code}) before listening:\n${output()}`)));
    });
  });
  afterAll(async () => {
    await stopChild(proxy);
    upstream.server.closeAllConnections();
    await new Promise((resolve) => upstream.server.close(resolve));
  });

  it('passes a conforming response through unchanged', async () => {
    const response = await fetch(`${url}/merchant/v1/payments/pay_8f3k2m9q4w7x`, { headers: credentials });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(payment);
    expect(upstream.seen).toContain('GET /merchant/v1/payments/pay_8f3k2m9q4w7x');
  });

  it('turns a response that breaks the contract into a 500 problem naming every violation', async () => {
    const response = await fetch(`${url}/merchant/v1/payments/pay_broken`, { headers: credentials });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await response.json()) as { validation: { location: string[]; message: string }[] };
    expect(problem.validation.map((v) => v.message).sort()).toEqual([
      "Response body property data must have required property 'status'",
      'Response body property data.requested.amount must be string',
    ]);
  });

  it('refuses a request that breaks the contract before the server sees it', async () => {
    const before = upstream.seen.length;
    const response = await fetch(`${url}/merchant/v1/payments?limit=1000`, { headers: credentials });
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { validation: { message: string }[] };
    expect(problem.validation.map((v) => v.message)).toEqual(['Request query parameter limit must be <= 100']);
    expect(upstream.seen.length).toBe(before);
  });

  it('refuses a bad --upstream with a clear message', async () => {
    const child = spawnTiedNode(command, ['--variant', 'a', '--upstream', 'payments.internal'], {
      nodeArgs: fromSource,
    });
    const output = collectOutput(child);
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    expect(output()).toContain(
      '--upstream must be an absolute http(s) URL such as https://payments.internal, got "payments.internal"',
    );
  });
});
