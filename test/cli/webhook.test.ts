// merchant-payments webhook secret | send | listen, run from their sources with tsx on 127.0.0.1: a secret the verifier
// takes, and a delivery sent to `listen --forward-to`, verified there and again at the receiver it was forwarded to.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { spawnTiedNode, stopChild } from '../../packages/contract/src/shared/children.js';
import {
  createNodeWebhookHandler,
  signWebhook,
  verifyWebhook,
  type WebhookEvent,
} from '../../packages/contract/src/webhooks/index.js';
import { fromSource, runSource, stillBound } from '../mock/processes.js';
import { exampleEvent, SECRET } from '../webhooks/fixtures.js';
import { serveNode, type Receiver } from '../webhooks/server.js';

const cli = path.join(root, 'packages/cli/src/main.ts');
const started: ChildProcess[] = [];
const receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => stopChild(child)));
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

const withSecret = (secret: string | undefined) => ({ ...process.env, WEBHOOK_SECRET: secret });
const secretParts = [SECRET, SECRET.slice('whsec_'.length)];

/** Starts `webhook listen` and resolves once it prints where it listens; its output so far is in `output()`. */
async function startListen(args: string[]) {
  const child = spawnTiedNode(cli, ['webhook', 'listen', '--port', '0', ...args], {
    cwd: root,
    nodeArgs: fromSource,
    env: withSecret(SECRET),
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/\S+) /.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) =>
      reject(new Error(`webhook listen exited (${code}) before listening:\n${stdout}${stderr}`)),
    );
  });
  return { child, url, stdout: () => stdout, stderr: () => stderr };
}

/** Waits until `read()` contains `text` (the child's output arrives on its own schedule). */
async function waitFor(read: () => string, text: string, ms = 5000): Promise<string> {
  const deadline = Date.now() + ms;
  while (!read().includes(text) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return read();
}

describe('merchant-payments webhook secret', () => {
  it('prints only a new whsec_ secret, which signs deliveries the verifier accepts', async () => {
    const first = await runSource(cli, ['webhook', 'secret'], process.env, started);
    const second = await runSource(cli, ['webhook', 'secret'], process.env, started);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^whsec_[A-Za-z0-9+/]{32}\n$/);
    expect(first.stderr).toBe('');
    expect(second.stdout).not.toBe(first.stdout);
    const secret = first.stdout.trim();
    const event = exampleEvent('payout.status_changed');
    const body = JSON.stringify(event);
    const headers = await signWebhook({ id: event.id, body, secret });
    const verified = await verifyWebhook(body, headers, secret);
    expect(verified.type).toBe('payout.status_changed');
    await expect(verifyWebhook(body, headers, SECRET)).rejects.toMatchObject({ reason: 'no_matching_signature' });
  });
});

describe('merchant-payments webhook listen', () => {
  it('verifies what webhook send delivers, prints it, forwards it unchanged to a receiver that verifies it too, and answers with its status', async () => {
    const delivered: WebhookEvent[] = [];
    const receiver = await serveNode(
      createNodeWebhookHandler({ secrets: SECRET, onEvent: (event) => void delivered.push(event) }),
    );
    receivers.push(receiver);
    const listen = await startListen(['--forward-to', `${receiver.url}/hooks?from=listen`]);
    expect(listen.stdout()).toContain(`forwarding verified deliveries to ${receiver.url}/hooks`);

    const sent = await runSource(
      cli,
      ['webhook', 'send', '--url', listen.url, '--type', 'payout.status_changed'],
      withSecret(SECRET),
      started,
    );
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain('status: 200');
    // The receiver verified the forwarded delivery with the same secret: the headers and the raw body arrived unchanged.
    expect(delivered.map((event) => event.type)).toEqual(['payout.status_changed']);
    const event = exampleEvent('payout.status_changed') as unknown as {
      id: string;
      data: { id: string; status: string };
    };
    expect(delivered[0]).toEqual(event);
    const line = `verified payout.status_changed ${event.id} ${event.data.id} ${event.data.status} (later layout) -> 200`;
    expect(await waitFor(listen.stdout, line)).toContain(line);

    // A receiver that fails (its handler throws, so it answers 500) has its status and body passed back to the sender.
    const refusing = await serveNode(
      createNodeWebhookHandler({
        secrets: SECRET,
        onEvent: () => {
          throw new Error('not now');
        },
      }),
    );
    receivers.push(refusing);
    const listenToRefusing = await startListen(['--forward-to', refusing.url]);
    const refused = await runSource(
      cli,
      ['webhook', 'send', '--url', listenToRefusing.url],
      withSecret(SECRET),
      started,
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('status: 500');
    expect(refused.stdout).toContain('handler_failed');

    for (const output of [
      listen.stdout(),
      listen.stderr(),
      sent.stdout,
      sent.stderr,
      refused.stdout,
      refused.stderr,
      listenToRefusing.stdout(),
    ]) {
      for (const part of secretParts) expect(output).not.toContain(part);
    }
  });

  it("answers 400 with the verifier's reason to a tampered delivery, says why on stderr, and forwards nothing", async () => {
    const delivered: WebhookEvent[] = [];
    const receiver = await serveNode(
      createNodeWebhookHandler({ secrets: SECRET, onEvent: (event) => void delivered.push(event) }),
    );
    receivers.push(receiver);
    const listen = await startListen(['--forward-to', receiver.url]);
    const event = exampleEvent('payment.status_changed');
    const body = JSON.stringify(event);
    const headers = await signWebhook({ id: event.id, body, secret: SECRET });
    const tampered = body.replace('"succeeded"', '"failed"');
    expect(tampered).not.toBe(body);

    const answer = await fetch(listen.url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'X-Event-Type': event.type },
      body: tampered,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ status: 400, code: 'no_matching_signature' });
    expect(await waitFor(listen.stderr, 'rejected no_matching_signature: ')).toContain(
      'rejected no_matching_signature: ',
    );
    const unsigned = await fetch(listen.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    expect([unsigned.status, ((await unsigned.json()) as { code: string }).code]).toEqual([400, 'missing_header']);
    expect(delivered).toEqual([]);
    expect(receiver.received).toEqual([]);
    expect(listen.stdout()).not.toMatch(/^verified /m);
    for (const part of secretParts) expect(`${listen.stdout()}${listen.stderr()}`).not.toContain(part);
  });

  it('answers 502 when the forward target does not answer, and stops on SIGTERM with exit 0, freeing its port', async () => {
    const closed = await serveNode(() => {});
    await closed.close();
    const listen = await startListen(['--forward-to', closed.url]);
    const event = exampleEvent('appeal.status_changed');
    const body = JSON.stringify(event);
    const headers = await signWebhook({ id: event.id, body, secret: SECRET });
    const answer = await fetch(listen.url, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body,
    });
    expect([answer.status, ((await answer.json()) as { code: string }).code]).toEqual([502, 'forward_failed']);
    expect(await waitFor(listen.stderr, 'forward failed network: ')).toContain('ECONNREFUSED');

    const exited = new Promise((resolve) => listen.child.once('exit', (code) => resolve(code)));
    process.kill(listen.child.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    expect(await stillBound([Number(new URL(listen.url).port)])).toEqual([]);
  });

  it('exits 2 without WEBHOOK_SECRET, or with a malformed one, never echoing it', async () => {
    const missing = await runSource(cli, ['webhook', 'listen', '--port', '0'], withSecret(undefined), started);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      expect.stringContaining('the WEBHOOK_SECRET environment variable must hold'),
    ]);
    const malformed = await runSource(cli, ['webhook', 'listen', '--port', '0'], withSecret('whsec_short'), started);
    expect([malformed.code, malformed.stderr]).toEqual([
      2,
      expect.stringContaining('WEBHOOK_SECRET: Webhook secret #1 is malformed'),
    ]);
    expect(malformed.stderr).not.toContain('whsec_short');
    const layout = await runSource(cli, ['webhook', 'listen', '--layout', 'newest'], withSecret(SECRET), started);
    expect([layout.code, layout.stderr]).toEqual([
      2,
      expect.stringContaining('--layout must be "later", "earlier" or "both"'),
    ]);
  });
});
