// Connect Webhook Listener on two sandbox instances sharing one PostgreSQL database: the listener's connection is held
// by the first, events are made through the second, and the first forwards them (told over LISTEN/NOTIFY, or by its
// periodic flush) to a receiver on 127.0.0.1 through the CLI's forwarder; the outcome is in the log either instance reads.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../packages/contract/src/webhooks/index.js';
import { startForwarder, type Forwarder } from '../../packages/cli/src/webhook/forward.js';
import { openSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { clientA, paymentBody } from '../sandbox/fixtures.js';
import { freshDatabase } from './database.js';

const TOKEN = 'token-pg-listener';
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function receiver() {
  const got: { headers: IncomingMessage['headers']; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  return { got, url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`) };
}

async function instance(databaseUrl: string, clock: 'manual' | 'real'): Promise<Sandbox> {
  const sandbox = await openSandbox({ store: 'postgres', databaseUrl, clock, seed: 'pg-listener' });
  closing.push(() => sandbox.close({ graceMs: 1000 }));
  return sandbox;
}

async function waitUntil(done: () => boolean, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return done();
}

/** Forwards the tenant's webhooks from `sandboxUrl` to `to`; resolves with the secret once the listener is ready. */
async function forwarder(sandboxUrl: string, to: URL): Promise<{ secret: string; forwarder: Forwarder }> {
  let secret: string | undefined;
  const made = startForwarder({
    from: new URL(sandboxUrl),
    forwardTo: to,
    credentials: { authorization: `Bearer ${TOKEN}` },
    timeoutMs: 10_000,
    onReady: (line) => (secret = /secret is (whsec_\S+)/.exec(line)?.[1]),
    onForwarded: () => {},
    onNotice: () => {},
    onFatal: (message) => {
      throw new Error(message);
    },
  });
  closing.push(() => made.close());
  expect(await waitUntil(() => secret !== undefined)).toBe(true);
  return { secret: secret!, forwarder: made };
}

describe.each(['manual', 'real'] as const)('a listener on one instance, on a %s clock', (clock) => {
  it('gets the events made through another instance, and its outcomes are recorded', async () => {
    const databaseUrl = await freshDatabase();
    const hooks = await receiver();
    const first = await instance(databaseUrl, clock);
    const second = await instance(databaseUrl, clock);
    const { url } = await first.listen({ port: 0 });
    const { secret } = await forwarder(url, hooks.url);

    const client = clientA(second, TOKEN);
    const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
    await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
    expect(await waitUntil(() => hooks.got.length === 1)).toBe(true);
    const event = await verifyWebhook(hooks.got[0]!.body, hooks.got[0]!.headers, secret);
    expect(event).toMatchObject({ type: 'payment.status_changed', data: { id: payment.id, status: 'canceled' } });

    let delivery: { state?: string; attempts?: Record<string, unknown>[] } = {};
    for (let i = 0; i < 400 && delivery.state !== 'delivered'; i += 1) {
      const answer = await second.fetch(
        new Request('http://sandbox.test/_sandbox/deliveries', { headers: { authorization: `Bearer ${TOKEN}` } }),
      );
      delivery = ((await answer.json()) as { data: (typeof delivery)[] }).data[0] ?? {};
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(delivery.attempts).toEqual([
      expect.objectContaining({ outcome: 'succeeded', response_status: 202, duration_ms: expect.any(Number) }),
    ]);
    const listed = await second.fetch(
      new Request('http://sandbox.test/_sandbox/webhook-endpoints', { headers: { authorization: `Bearer ${TOKEN}` } }),
    );
    expect(((await listed.json()) as { data: unknown[] }).data).toEqual([
      expect.objectContaining({ listener: true, url: hooks.url.href }),
    ]);
  });
});
