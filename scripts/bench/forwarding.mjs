// Webhooks forwarded to a laptop (`webhook listen --from`), against a baseline in the same run: the time from the
// request that changes a payment's status (a cancel, over HTTP) until a receiver on 127.0.0.1 has the webhook, p50 and
// p99, for a listener's connection (the CLI's forwarder, from dist) and for an ordinary webhook endpoint at the same
// receiver. Two in-memory sandboxes from dist on free ports, in this process; events alternate between them.
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../lib/tools.mjs';
import { ensureBuilt, PAYMENT } from './sandbox.mjs';
import { summarize } from './stats.mjs';

const SECTION = 'forwarding';
const TOKEN = 'bench-forwarding';
const AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
const dist = (name, file) => import(pathToFileURL(path.join(root, 'packages', name, 'dist/src', file)).href);

/** A receiver that resolves the waiter of each payment id it is sent a webhook about. */
async function receiver() {
  const waiting = new Map();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      res.writeHead(200).end();
      const id = JSON.parse(body).data?.id;
      waiting.get(id)?.(performance.now());
      waiting.delete(id);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    arrival: (id) => new Promise((resolve) => waiting.set(id, resolve)),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function json(response, what) {
  if (!response.ok) throw new Error(`${what} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** One event: a payment created, then the time from its cancel request to its webhook at the receiver. */
async function eventLatency(url, hooks, n) {
  const created = await json(
    await fetch(`${url}/payments`, {
      method: 'POST',
      headers: { ...AUTH, 'idempotency-key': `bench-${n}` },
      body: PAYMENT,
    }),
    'Create Payment',
  );
  const arrived = hooks.arrival(created.data.id);
  const start = performance.now();
  await json(
    await fetch(`${url}/payments/${created.data.id}/cancel`, {
      method: 'POST',
      headers: { ...AUTH, 'idempotency-key': `cancel-${n}` },
    }),
    'Cancel',
  );
  return (await arrived) - start;
}

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];
const row = (name, unit, summary, extra = {}) => ({ section: SECTION, name, unit, ...summary, ...extra });

/** Every row of the forwarding section, and the note that says how it ran. */
export async function forwardingBench({ quick }) {
  const settings = { events: quick ? 50 : 300, warmup: quick ? 5 : 20 };
  ensureBuilt();
  const { createSandbox } = await dist('sandbox', 'index.js');
  const { startForwarder } = await dist('cli', 'webhook/forward.js');
  const hooks = await receiver();
  const endpoint = createSandbox({ clock: 'manual', seed: 'bench-endpoint' });
  const listener = createSandbox({ clock: 'manual', seed: 'bench-listener' });
  let forwarder;
  try {
    const endpointUrl = (await endpoint.listen({ port: 0 })).url;
    const listenerUrl = (await listener.listen({ port: 0 })).url;
    await json(
      await fetch(`${endpointUrl}/_sandbox/webhook-endpoints`, {
        method: 'POST',
        headers: AUTH,
        body: JSON.stringify({ url: hooks.url }),
      }),
      'Create Webhook Endpoint',
    );
    await new Promise((resolve, reject) => {
      forwarder = startForwarder({
        from: new URL(listenerUrl),
        forwardTo: new URL(hooks.url),
        credentials: { authorization: `Bearer ${TOKEN}` },
        timeoutMs: 10_000,
        onReady: resolve,
        onForwarded: () => {},
        onNotice: () => {},
        onFatal: (message) => reject(new Error(message)),
      });
    });
    const samples = { endpoint: [], listener: [] };
    for (let n = 0; n < settings.warmup + settings.events; n++) {
      // Note: alternated, and in turns that swap which goes first, so that drift on a noisy machine hits both alike.
      const order = n % 2 ? ['endpoint', 'listener'] : ['listener', 'endpoint'];
      for (const name of order) {
        const url = name === 'endpoint' ? endpointUrl : listenerUrl;
        const ms = await eventLatency(url, hooks, `${name}-${n}`);
        if (n >= settings.warmup) samples[name].push(ms);
      }
    }
    const of = (name, p) => ({ ...summarize(samples[name]), median: percentile(samples[name], p) });
    const rows = [];
    for (const [label, p] of [
      ['p50', 0.5],
      ['p99', 0.99],
    ]) {
      const base = of('endpoint', p);
      const forwarded = of('listener', p);
      rows.push(
        row(`status change to webhook received, ${label}: a webhook endpoint on 127.0.0.1`, 'ms', base),
        row(`status change to webhook received, ${label}: a listener (webhook listen --from)`, 'ms', forwarded, {
          ratio: forwarded.median / base.median,
          baseline: `a webhook endpoint, ${label}`,
        }),
      );
    }
    return {
      rows,
      settings,
      notes: [
        `Forwarding: two sandboxes from dist on the memory store, --clock manual, in the bench's process; per event a payment is created, then the time from its cancel request (HTTP, Variant A) to its webhook at a receiver on 127.0.0.1 is taken, ${settings.events} events each after ${settings.warmup} unrecorded, alternating. The listener's webhooks travel over the CLI's forwarder (WebSocket) and its POST; the endpoint's over the sandbox's own POST. The min and max columns are the sample's, the median column the percentile named.`,
      ],
    };
  } finally {
    await forwarder?.close();
    await listener.close({ graceMs: 1000 });
    await endpoint.close({ graceMs: 1000 });
    await hooks.close();
  }
}
