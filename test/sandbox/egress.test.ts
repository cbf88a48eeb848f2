// The egress rule through the sandbox: a tenant's webhook endpoint is held to it when it is registered (422
// webhook_host_forbidden) and again when each delivery connects (forbidden_address in the delivery log, the
// `forbidden` outcome in the metrics), the connection going to the address the rule judged. Every receiver listens on
// this machine's loopback range, and every other name is resolved by an injected lookup: nothing leaves the machine.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import getPort from 'get-port';
import { describe, expect, it, onTestFinished } from 'vitest';
import { main } from '../../packages/sandbox/src/cli/command.js';
import type { Sandbox, SandboxOptions } from '../../packages/sandbox/src/index.js';
import { createNodeWebhookHandler, type VerifiedWebhookEvent } from '../../packages/contract/src/webhooks/index.js';
import { runMain } from '../cli/run-main.js';
import type { Node } from '../contract/bundled-spec.js';
import { controlSandbox, controlSpec } from './control-fixtures.js';
import { call, clientA, paymentBody, SECRET } from './fixtures.js';

const ISSUED_DETAIL = "forbidden_address: the endpoint's host resolves to an address this sandbox does not deliver to.";
const NO_CONNECTION = 'network: no connection to the endpoint.';
/** A public address the injected lookups answer with; nothing is ever sent to it. */
const PUBLIC = '93.184.215.14';

/** A receiver on a loopback address that verifies each delivery and counts the connections made to it. */
async function loopbackReceiver(host = '127.0.0.1', port = 0) {
  const events: VerifiedWebhookEvent[] = [];
  let connections = 0;
  const handler = createNodeWebhookHandler({ secrets: SECRET, onEvent: (event) => void events.push(event) });
  const server: Server = createServer((req, res) => void handler(req, res));
  server.on('connection', () => void (connections += 1));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { port: (server.address() as AddressInfo).port, events, connections: () => connections };
}

/** A sandbox in `auth` mode, every /_sandbox answer held to the control document. */
const sandboxIn = (auth: 'open' | 'issued', options: SandboxOptions = {}) => controlSandbox({ auth, ...options });

/** The bearer token of a tenant of `sandbox`: in issued mode one its store's registry issues, in open mode any. */
async function tenantToken(sandbox: Sandbox): Promise<string> {
  const registry = sandbox.runtime.registry;
  return registry ? (await registry.create(Date.now())).accessToken : 'token-a';
}

/** Registers `url` for the tenant: the control API's answer. */
async function register(sandbox: Sandbox, token: string, url: string) {
  const response = await call(
    sandbox,
    'POST',
    '/_sandbox/webhook-endpoints',
    { authorization: `Bearer ${token}` },
    { url, secret: SECRET },
  );
  return {
    status: response.status,
    body: (await response.json()) as { code?: string; detail?: string; data?: { id: string } },
  };
}

/** Makes one status change (a payment created, then canceled), waits for its deliveries, and returns the delivery log. */
async function deliverOne(
  sandbox: Sandbox,
  token: string,
): Promise<{ text: string; attempts: { outcome: string; response_status: number | null; error: string | null }[] }> {
  const client = clientA(sandbox, token);
  const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
  await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
  await sandbox.settled();
  const text = await (await call(sandbox, 'GET', '/_sandbox/deliveries', { authorization: `Bearer ${token}` })).text();
  // Note: the first attempt of each delivery, newest delivery first (a failed one has its retry pending behind it).
  return { text, attempts: JSON.parse(text).data.map((delivery: { attempts: unknown[] }) => delivery.attempts[0]) };
}

/** The sandbox's `sandbox_deliveries_total` by outcome. */
async function deliveriesByOutcome(sandbox: Sandbox): Promise<Record<string, number>> {
  const metric = await sandbox.metrics.getSingleMetric('sandbox_deliveries_total')!.get();
  return Object.fromEntries(metric.values.map((value) => [String(value.labels.outcome), value.value]));
}

/** A lookup that answers each call with the next of `answers` (the last one again once they run out), and counts the calls. */
function lookupAnswering(...answers: string[][]) {
  const calls: string[] = [];
  const lookup = async (hostname: string) => {
    calls.push(hostname);
    return answers[Math.min(calls.length, answers.length) - 1]!;
  };
  return { lookup, calls };
}

describe('registering a webhook endpoint in issued mode', () => {
  it.each([
    ['an IP address', (port: number) => `http://127.0.0.1:${port}/hooks`, 'The host of url is a loopback address'],
    [
      'localhost, resolved by the system',
      (port: number) => `http://localhost:${port}/hooks`,
      'The host of url resolves to a loopback address',
    ],
  ])(
    'refuses a loopback host given as %s: 422 webhook_host_forbidden naming the class, never the address',
    async (_name, url, start) => {
      const sandbox = sandboxIn('issued');
      const receiver = await loopbackReceiver();
      const { status, body } = await register(sandbox, await tenantToken(sandbox), url(receiver.port));
      expect([status, body.code]).toEqual([422, 'webhook_host_forbidden']);
      expect(body.detail).toBe(
        `${start}, which this sandbox does not deliver to (egress rule of --auth issued); its operator can allow it with --allow-webhook-host.`,
      );
      expect(JSON.stringify(body)).not.toContain('127.0.0.1');
      expect(receiver.connections()).toBe(0);
    },
  );

  it("answers with a code and title the control document shows as an example of Create Webhook Endpoint's 422", async () => {
    const response = controlSpec.response(controlSpec.operation('createWebhookEndpoint')!, '422')!;
    const examples = Object.values((response.content?.['application/problem+json']?.examples ?? {}) as Node).map(
      (e) => controlSpec.resolve(e as Node).value,
    );
    const shown = examples.find((example) => example?.code === 'webhook_host_forbidden');
    const sandbox = sandboxIn('issued');
    const { body } = await register(sandbox, await tenantToken(sandbox), 'http://10.0.0.1/hooks');
    expect(body).toMatchObject({ code: 'webhook_host_forbidden', title: shown?.title, status: 422, type: shown?.type });
  });

  it('refuses a name resolving to a private address among public ones, and one that does not resolve, without echoing the lookup', async () => {
    const lookup = async (hostname: string) => {
      if (hostname === 'mixed.merchant.example') return [PUBLIC, '10.20.30.40'];
      throw new Error('queryA ESERVFAIL internal-resolver.corp 10.9.8.7');
    };
    const sandbox = sandboxIn('issued', { lookup });
    const token = await tenantToken(sandbox);
    const mixed = await register(sandbox, token, 'https://mixed.merchant.example/hooks');
    expect([mixed.status, mixed.body.code, mixed.body.detail]).toEqual([
      422,
      'webhook_host_forbidden',
      'The host of url resolves to a private address, which this sandbox does not deliver to (egress rule of --auth issued); its operator can allow it with --allow-webhook-host.',
    ]);
    expect(JSON.stringify(mixed.body)).not.toContain('10.20.30.40');
    const nowhere = await register(sandbox, token, 'https://nowhere.merchant.example/hooks');
    expect([nowhere.status, nowhere.body.code]).toEqual([422, 'webhook_host_forbidden']);
    expect(nowhere.body.detail).toBe(
      'The host of url resolves to no address, so this sandbox cannot check where it would deliver (egress rule of --auth issued); register a host that resolves.',
    );
    for (const leak of ['ESERVFAIL', 'internal-resolver', '10.9.8.7'])
      expect(JSON.stringify(nowhere.body), leak).not.toContain(leak);
    const listed = await call(sandbox, 'GET', '/_sandbox/webhook-endpoints', { authorization: `Bearer ${token}` });
    expect((await listed.json()).data).toEqual([]);
  });

  it('refuses a metadata service by name and by address without looking it up', async () => {
    const { lookup, calls } = lookupAnswering([PUBLIC]);
    const sandbox = sandboxIn('issued', { lookup });
    const token = await tenantToken(sandbox);
    for (const url of [
      'http://metadata.google.internal/computeMetadata/v1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/',
    ]) {
      const { status, body } = await register(sandbox, token, url);
      expect([status, body.code, body.detail], url).toEqual([
        422,
        'webhook_host_forbidden',
        expect.stringMatching(
          /^The host of url (names a cloud metadata service|is a cloud metadata address), which this sandbox does not deliver to/,
        ),
      ]);
    }
    expect(calls).toEqual([]);
  });

  it.each([['127.0.0.1'], ['127.0.0.0/8']])(
    'lets --allow-webhook-host %s through: registered, and delivered over HTTP to a loopback receiver',
    async (allowed) => {
      const receiver = await loopbackReceiver();
      const sandbox = sandboxIn('issued', { allowWebhookHosts: [allowed] });
      const token = await tenantToken(sandbox);
      const { status } = await register(sandbox, token, `http://127.0.0.1:${receiver.port}/hooks`);
      expect(status).toBe(201);
      const { attempts } = await deliverOne(sandbox, token);
      expect(attempts).toMatchObject([{ outcome: 'succeeded', response_status: 200, error: null }]);
      expect(receiver.events.map((event) => event.type)).toEqual(['payment.status_changed']);
      expect(await deliveriesByOutcome(sandbox)).toMatchObject({ ok: 1 });
    },
  );

  it("sends a name the system resolves (localhost) through the rule's own lookup, to the address it allowed", async () => {
    const receiver = await loopbackReceiver();
    const sandbox = sandboxIn('issued', { allowWebhookHosts: ['127.0.0.1'] });
    const token = await tenantToken(sandbox);
    expect((await register(sandbox, token, `http://localhost:${receiver.port}/hooks`)).status).toBe(201);
    const { attempts } = await deliverOne(sandbox, token);
    expect(attempts).toMatchObject([{ outcome: 'succeeded', response_status: 200 }]);
    expect(receiver.events).toHaveLength(1);
  });

  it("leaves the operator's --webhook-url endpoints to the operator: delivered to loopback with no allow list", async () => {
    const receiver = await loopbackReceiver();
    const sandbox = sandboxIn('issued', {
      webhookUrls: [`http://127.0.0.1:${receiver.port}/ops`],
      webhookSecret: SECRET,
    });
    const { attempts } = await deliverOne(sandbox, await tenantToken(sandbox));
    expect(attempts).toMatchObject([{ outcome: 'succeeded', response_status: 200 }]);
    expect(receiver.events).toHaveLength(1);
  });
});

describe('delivering in issued mode', () => {
  it('refuses a host that now resolves to loopback (DNS rebinding) without connecting: forbidden_address only, counted as forbidden', async () => {
    const rebound = await loopbackReceiver('127.0.0.2');
    // Note: public when registered, 127.0.0.2 from the delivery on.
    const { lookup, calls } = lookupAnswering([PUBLIC], ['127.0.0.2']);
    const sandbox = sandboxIn('issued', { lookup });
    const token = await tenantToken(sandbox);
    expect((await register(sandbox, token, `http://hooks.rebind.example:${rebound.port}/hooks`)).status).toBe(201);
    const { text, attempts } = await deliverOne(sandbox, token);
    expect(attempts).toEqual([
      expect.objectContaining({ outcome: 'failed', response_status: null, error: ISSUED_DETAIL }),
    ]);
    for (const leak of ['127.0.0.2', String(rebound.port), 'loopback', 'ECONN']) expect(text, leak).not.toContain(leak);
    expect(rebound.connections()).toBe(0);
    expect(calls).toEqual(['hooks.rebind.example', 'hooks.rebind.example']);
    expect(await deliveriesByOutcome(sandbox)).toMatchObject({ forbidden: 1 });
    expect((await deliveriesByOutcome(sandbox)).unanswered).toBeUndefined();
  });

  it('connects to the address its one lookup judged, so a later answer of the resolver cannot swap it', async () => {
    const allowed = await loopbackReceiver('127.0.0.1');
    const other = await loopbackReceiver('127.0.0.2', allowed.port);
    // Note: the registration and the delivery's lookup get 127.0.0.1; any lookup after them would get 127.0.0.2.
    const { lookup, calls } = lookupAnswering(['127.0.0.1'], ['127.0.0.1'], ['127.0.0.2']);
    const sandbox = sandboxIn('issued', { lookup, allowWebhookHosts: ['127.0.0.1/32'] });
    const token = await tenantToken(sandbox);
    expect((await register(sandbox, token, `http://hooks.pinned.example:${allowed.port}/hooks`)).status).toBe(201);
    const { attempts } = await deliverOne(sandbox, token);
    expect(attempts).toMatchObject([{ outcome: 'succeeded', response_status: 200 }]);
    expect([allowed.events.length, other.connections()]).toEqual([1, 0]);
    expect(calls).toHaveLength(2);
  });

  it('with a fetch of its user, checks again before handing the request over, and refuses without calling it', async () => {
    const sent: string[] = [];
    const fetch = async (request: Request) => {
      sent.push(request.url);
      return new Response(null, { status: 204 });
    };
    const { lookup } = lookupAnswering([PUBLIC], [PUBLIC], ['127.0.0.2']);
    const sandbox = sandboxIn('issued', { lookup, fetch, clock: 'manual' });
    const token = await tenantToken(sandbox);
    expect((await register(sandbox, token, 'https://hooks.rebind.example/hooks')).status).toBe(201);
    const first = await deliverOne(sandbox, token);
    expect(first.attempts).toMatchObject([{ outcome: 'succeeded', response_status: 204 }]);
    const second = await deliverOne(sandbox, token);
    expect(second.attempts[0]).toEqual(expect.objectContaining({ outcome: 'failed', error: ISSUED_DETAIL }));
    expect(sent).toEqual(['https://hooks.rebind.example/hooks']);
  });

  it('logs a refused connection as network, without its system error code, host or port', async () => {
    const port = await getPort();
    const sandbox = sandboxIn('issued', { allowWebhookHosts: ['127.0.0.1'] });
    const token = await tenantToken(sandbox);
    expect((await register(sandbox, token, `http://127.0.0.1:${port}/hooks`)).status).toBe(201);
    const { text, attempts } = await deliverOne(sandbox, token);
    expect(attempts).toEqual([
      expect.objectContaining({ outcome: 'failed', response_status: null, error: NO_CONNECTION }),
    ]);
    // Note: nor how long the refusal took, which would tell an open port from a filtered one.
    expect(attempts[0]).not.toHaveProperty('duration_ms');
    for (const leak of ['ECONNREFUSED', String(port), '127.0.0.1']) expect(text, leak).not.toContain(leak);
    expect(await deliveriesByOutcome(sandbox)).toMatchObject({ unanswered: 1 });
  });
});

describe('open mode', () => {
  it('still registers and delivers to loopback, by address and by name', async () => {
    const receiver = await loopbackReceiver();
    const sandbox = sandboxIn('open');
    expect((await register(sandbox, 'token-a', `http://127.0.0.1:${receiver.port}/hooks`)).status).toBe(201);
    expect((await register(sandbox, 'token-a', `http://localhost:${receiver.port}/hooks`)).status).toBe(201);
    const { attempts } = await deliverOne(sandbox, 'token-a');
    expect(attempts).toMatchObject([
      { outcome: 'succeeded', response_status: 200 },
      { outcome: 'succeeded', response_status: 200 },
    ]);
    expect(receiver.events).toHaveLength(2);
  });

  it('keeps the system error code of a refused connection, for local debugging', async () => {
    const port = await getPort();
    const sandbox = sandboxIn('open');
    expect((await register(sandbox, 'token-a', `http://127.0.0.1:${port}/hooks`)).status).toBe(201);
    const { attempts } = await deliverOne(sandbox, 'token-a');
    expect(attempts).toEqual([expect.objectContaining({ outcome: 'failed', error: 'network: ECONNREFUSED.' })]);
  });

  it('refuses link-local and metadata addresses when registered, and a name that resolves to one when delivering', async () => {
    const { lookup } = lookupAnswering(['169.254.10.20']);
    const sandbox = sandboxIn('open', { lookup });
    for (const [url, start] of [
      ['http://169.254.10.20/hooks', 'The host of url is a link-local address'],
      ['http://[fe80::1]:8080/hooks', 'The host of url is a link-local address'],
      ['http://169.254.169.254/latest/meta-data/', 'The host of url is a cloud metadata address'],
      ['http://metadata.google.internal/', 'The host of url names a cloud metadata service'],
    ]) {
      const { status, body } = await register(sandbox, 'token-a', url!);
      expect([status, body.code, body.detail], url).toEqual([
        422,
        'webhook_host_forbidden',
        `${start}, which this sandbox does not deliver to (egress rule of --auth open); its operator can allow it with --allow-webhook-host.`,
      ]);
    }
    // Note: open mode looks a name up only when a delivery connects to it.
    expect((await register(sandbox, 'token-a', 'http://hooks.link-local.example/hooks')).status).toBe(201);
    const { attempts } = await deliverOne(sandbox, 'token-a');
    expect(attempts).toEqual([
      expect.objectContaining({
        outcome: 'failed',
        error:
          "forbidden_address: the endpoint's host resolves to a link-local address, which this sandbox does not deliver to.",
      }),
    ]);
    expect(await deliveriesByOutcome(sandbox)).toMatchObject({ forbidden: 1 });
  });
});

describe('merchant-payments sandbox --allow-webhook-host', () => {
  it('stops with exit 2 on an entry that is no host name, IP address or CIDR range, naming where it came from', async () => {
    const flag = await runMain(main, ['--port', '0', '--allow-webhook-host', '10.0.0.0/33']);
    expect([flag.code, flag.stderr]).toEqual([
      2,
      expect.stringContaining(
        '--allow-webhook-host must be a host name, an IP address or a CIDR range such as 10.0.0.0/8, got "10.0.0.0/33"',
      ),
    ]);
    const variable = await runMain(main, ['--port', '0'], { SANDBOX_ALLOW_WEBHOOK_HOSTS: '127.0.0.1, not a host' });
    expect([variable.code, variable.stderr]).toEqual([
      2,
      expect.stringContaining(
        'SANDBOX_ALLOW_WEBHOOK_HOSTS must be a host name, an IP address or a CIDR range such as 10.0.0.0/8, got "not a host"',
      ),
    ]);
  });
});
