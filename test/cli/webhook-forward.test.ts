// merchant-payments webhook listen --from, run from its source with tsx against sandboxes served in this process: the
// secret printed at start verifies what reaches the local receiver, the outcome lands in the delivery log, a dropped
// connection is resumed (the sandbox stopped, an event made meanwhile through a second sandbox on the same store,
// then served again on the same port), and the exit codes of refused credentials and bad flags.
import type { ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { spawnTiedNode, stopChild } from '../../packages/contract/src/shared/children.js';
import { verifyWebhook } from '../../packages/contract/src/webhooks/index.js';
import { createSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { createMemoryStore } from '../../packages/sandbox/src/stores/memory.js';
import type { TenantStore } from '../../packages/sandbox/src/stores/types.js';
import { fromSource, runSource } from '../mock/processes.js';
import { clientA, paymentBody } from '../sandbox/fixtures.js';

const cli = path.join(root, 'packages/cli/src/main.ts');
const TOKEN = 'token-forward-test';
const started: ChildProcess[] = [];
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => stopChild(child)));
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** A receiver on 127.0.0.1 that records each POST and answers `status`. */
async function receiver(status = 200) {
  const got: { headers: IncomingMessage['headers']; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += String(chunk)));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  return { got, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

/** A sandbox on `store` (shared between the sandboxes of a test, as instances share a database). */
function sandboxOn(store: { shared?: TenantStore }, options: Parameters<typeof createSandbox>[0] = {}): Sandbox {
  const sandbox = createSandbox({
    clock: 'manual',
    seed: 'forward',
    ...options,
    store: (settings) => (store.shared ??= createMemoryStore(settings)),
  });
  closing.push(() => sandbox.close({ graceMs: 1000 }));
  return sandbox;
}

/** Starts the command; its output so far is in `stdout()` and `stderr()`. */
function startForward(from: string, forwardTo: string, env: NodeJS.ProcessEnv = { PAYMENTS_ACCESS_TOKEN: TOKEN }) {
  const child = spawnTiedNode(cli, ['webhook', 'listen', '--from', from, '--forward-to', forwardTo], {
    cwd: root,
    nodeArgs: fromSource,
    env: { ...process.env, ...env },
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return { child, stdout: () => stdout, stderr: () => stderr };
}

/** Waits until `done()` holds, or the time runs out; returns whether it held. */
async function waitUntil(done: () => boolean, ms = 30_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return done();
}

async function cancelPayment(sandbox: Sandbox) {
  const client = clientA(sandbox, TOKEN);
  const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
  await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
  return payment;
}

const SECRET_LINE = /signing secret is (whsec_\S+)/;

describe('merchant-payments webhook listen --from', () => {
  it('prints the secret, forwards signed events, and resumes after its connection drops', async () => {
    const hooks = await receiver();
    const store: { shared?: TenantStore } = {};
    const first = sandboxOn(store);
    const { url } = await first.listen({ port: 0 });
    const forward = startForward(url, hooks.url);
    expect(await waitUntil(() => SECRET_LINE.test(forward.stdout()), 60_000), forward.stderr()).toBe(true);
    const secret = SECRET_LINE.exec(forward.stdout())![1]!;

    const payment = await cancelPayment(first);
    expect(await waitUntil(() => hooks.got.length === 1)).toBe(true);
    const event = await verifyWebhook(hooks.got[0]!.body, hooks.got[0]!.headers, secret);
    expect(event).toMatchObject({ type: 'payment.status_changed', data: { id: payment.id, status: 'canceled' } });
    expect(hooks.got[0]!.headers['user-agent']).toMatch(/^merchant-payments-sandbox\//);
    expect(
      await waitUntil(() =>
        /forwarded payment\.status_changed \S+ \S+ canceled \(attempt 1\) -> 200/.test(forward.stdout()),
      ),
    ).toBe(true);
    let delivery: { state?: string; attempts?: Record<string, unknown>[] } = {};
    for (let i = 0; i < 200 && delivery.state !== 'delivered'; i += 1) {
      const answer = await first.fetch(
        new Request(`${url}/_sandbox/deliveries`, { headers: { authorization: `Bearer ${TOKEN}` } }),
      );
      delivery = ((await answer.json()) as { data: (typeof delivery)[] }).data[0] ?? {};
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(delivery.attempts?.[0]).toMatchObject({ outcome: 'succeeded', response_status: 200 });
    expect(delivery.attempts?.[0]?.duration_ms).toEqual(expect.any(Number));

    // The sandbox goes away; an event is made meanwhile, through another sandbox on the same store.
    await first.close({ graceMs: 1000 });
    const second = sandboxOn(store);
    await cancelPayment(second);
    expect(hooks.got).toHaveLength(1);
    await second.listen({ port: Number(new URL(url).port) });
    expect(await waitUntil(() => hooks.got.length === 2, 60_000), forward.stderr()).toBe(true);
    await verifyWebhook(hooks.got[1]!.body, hooks.got[1]!.headers, secret);
    expect(forward.stderr()).toMatch(/reconnected to listener we_/);

    const exited = new Promise((resolve) => forward.child.once('exit', resolve));
    process.kill(forward.child.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    expect(`${forward.stdout()}${forward.stderr()}`).not.toContain(TOKEN);
    // Its close (1000) removes the listener (in a transaction of its own, once the sandbox has seen the close).
    let left: unknown[] = [];
    for (let i = 0; i < 200; i += 1) {
      const listed = await second.fetch(
        new Request(`${url}/_sandbox/webhook-endpoints`, { headers: { authorization: `Bearer ${TOKEN}` } }),
      );
      left = ((await listed.json()) as { data: unknown[] }).data;
      if (left.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(left).toEqual([]);
  });

  it('exits 1 naming the 401 when the sandbox refuses the credentials', async () => {
    const sandbox = sandboxOn({}, { auth: 'issued' });
    const { url } = await sandbox.listen({ port: 0 });
    const run = await runSource(
      cli,
      ['webhook', 'listen', '--from', url, '--forward-to', 'http://127.0.0.1:9/hook'],
      { ...process.env, PAYMENTS_ACCESS_TOKEN: 'not-issued' },
      started,
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/401: .*(access token|credential)/i);
    expect(run.stderr).not.toContain('not-issued');
  });

  it.each([
    [
      ['--from', 'http://127.0.0.1:1', '--forward-to', 'ftp://x/'],
      { PAYMENTS_ACCESS_TOKEN: TOKEN },
      '--forward-to must be',
    ],
    [['--from', 'sandbox', '--forward-to', 'http://127.0.0.1:9/'], { PAYMENTS_ACCESS_TOKEN: TOKEN }, '--from must be'],
    [
      ['--from', 'http://127.0.0.1:1', '--forward-to', 'http://127.0.0.1:9/', '--port', '4040'],
      { PAYMENTS_ACCESS_TOKEN: TOKEN },
      '--port listens locally',
    ],
    [
      ['--from', 'http://127.0.0.1:1', '--forward-to', 'http://127.0.0.1:9/'],
      { PAYMENTS_PUBLIC_KEY: 'pk' },
      'PAYMENTS_ACCESS_TOKEN (Variant A), or PAYMENTS_PUBLIC_KEY and PAYMENTS_SECRET_KEY',
    ],
  ])('exits 2 on %j', async (args, env, message) => {
    const clean = { ...process.env };
    delete clean.PAYMENTS_ACCESS_TOKEN;
    delete clean.PAYMENTS_PUBLIC_KEY;
    delete clean.PAYMENTS_SECRET_KEY;
    const run = await runSource(cli, ['webhook', 'listen', ...args], { ...clean, ...env }, started);
    expect([run.code, run.stderr]).toEqual([2, expect.stringContaining(message)]);
  });
});
