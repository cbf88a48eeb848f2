import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhookExamples } from '../../packages/contract/generated/validators/webhook-examples.js';
import {
  createFetchWebhookHandler,
  createNodeWebhookHandler,
  sendWebhookExample,
  WebhookSendError,
  type EarlierWebhookEvent,
  type WebhookEvent,
  type WebhookHandlerContext,
} from '../../packages/contract/src/webhooks/index.js';
import { main as sendMain } from '../../packages/cli/src/webhook/send.js';
import { runMain, type MainResult } from '../cli/run-main.js';
import { exampleTypes, OTHER_SECRET, SECRET } from './fixtures.js';
import {
  endlessReceiver,
  fixedReceiver,
  redirectingReceiver,
  silentReceiver,
  type HostileReceiver,
} from './hostile.js';
import { serveFetch, serveNode, type Receiver } from './server.js';

type Delivered = { event: WebhookEvent | EarlierWebhookEvent; context: WebhookHandlerContext };

/** Options shared by both adapters: a strict receiver and one that also takes the earlier layout, de-duplicating. */
function receiverOptions(delivered: Delivered[]) {
  const seen = new Set<string>();
  return {
    secrets: SECRET,
    allowEarlierLayout: true as boolean,
    onEvent: (event: WebhookEvent | EarlierWebhookEvent, context: WebhookHandlerContext) =>
      void delivered.push({ event, context }),
    dedupe: { claim: (id: string) => !seen.has(id) && Boolean(seen.add(id)), release: (id: string) => seen.delete(id) },
  };
}

const adapters = {
  fetch: (options: ReturnType<typeof receiverOptions>, strict: boolean) =>
    serveFetch(createFetchWebhookHandler({ ...options, allowEarlierLayout: !strict })),
  node: (options: ReturnType<typeof receiverOptions>, strict: boolean) =>
    serveNode(createNodeWebhookHandler({ ...options, allowEarlierLayout: !strict })),
};

describe.each(Object.entries(adapters))('sendWebhookExample to a %s receiver', (_name, serve) => {
  const delivered: Delivered[] = [];
  let receiver: Receiver;
  let strict: Receiver;

  beforeAll(async () => {
    receiver = await serve(receiverOptions(delivered), false);
    strict = await serve(receiverOptions([]), true);
  });
  afterAll(async () => {
    await receiver.close();
    await strict.close();
  });

  it.each(exampleTypes)('delivers the %s example with every header of the later layout', async (type) => {
    const result = await sendWebhookExample({
      url: receiver.url,
      secret: SECRET,
      type,
      id: `evt_${type.split('.')[0]}_1`,
    });
    expect([result.status, JSON.parse(result.body)]).toEqual([200, {}]);
    expect(delivered.at(-1)).toEqual({ event: result.event, context: { id: result.event.id, layout: 'later' } });
    expect(result.event.type).toBe(type);
    const names = Object.keys(receiver.received.at(-1)!);
    for (const header of webhookExamples.layouts.later.headers) expect(names).toContain(header.name.toLowerCase());
  });

  it('delivers the earlier layout, without X-Timestamp, only to a receiver that allows it', async () => {
    const result = await sendWebhookExample({ url: receiver.url, secret: SECRET, layout: 'earlier' });
    expect(result.status).toBe(200);
    expect(delivered.at(-1)?.context.layout).toBe('earlier');
    expect(receiver.received.at(-1)).not.toHaveProperty('x-timestamp');
    const refused = await sendWebhookExample({ url: strict.url, secret: SECRET, layout: 'earlier' });
    expect([refused.status, JSON.parse(refused.body).code]).toEqual([400, 'missing_header']);
  });

  it('is answered 401 no_matching_signature when signed with another secret', async () => {
    const result = await sendWebhookExample({ url: receiver.url, secret: OTHER_SECRET });
    expect([result.status, JSON.parse(result.body).code]).toEqual([401, 'no_matching_signature']);
  });

  it('is acknowledged without a second delivery when the same event id is sent again', async () => {
    const first = await sendWebhookExample({ url: receiver.url, secret: SECRET, id: 'evt_repeat_1' });
    const count = delivered.length;
    const second = await sendWebhookExample({ url: receiver.url, secret: SECRET, id: 'evt_repeat_1' });
    expect([first.status, second.status, JSON.parse(second.body)]).toEqual([200, 200, { duplicate: true }]);
    expect(delivered).toHaveLength(count);
  });
});

/** Runs `merchant-payments webhook send` in this process with the secret in WEBHOOK_SECRET; its exit code and output. */
function webhookSend(args: string[], secret = SECRET): Promise<MainResult> {
  return runMain(sendMain, args, { WEBHOOK_SECRET: secret });
}

describe('merchant-payments webhook send', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await serveNode(createNodeWebhookHandler({ secrets: SECRET, onEvent: () => {} }));
  });
  afterAll(() => receiver.close());

  it('prints the status and body of the receiver and exits 0 on 2xx', async () => {
    const { code, stdout } = await webhookSend(['--url', receiver.url, '--type', 'payout.status_changed']);
    expect(code).toBe(0);
    expect(stdout).toContain('sent payout.status_changed');
    expect(stdout).toContain('status: 200');
    expect(stdout).toContain('body: {}');
  });

  it('prints the receiver URL without its query string, which may carry a token', async () => {
    const { code, stdout } = await webhookSend(['--url', `${receiver.url}?token=tok_in_query_Secret9`]);
    expect(code).toBe(0);
    expect(stdout).toContain(`to ${new URL(receiver.url).origin}${new URL(receiver.url).pathname}?…`);
    expect(stdout).not.toContain('tok_in_query_Secret9');
  });

  it('exits 1 and prints the problem when the receiver refuses the delivery', async () => {
    const { code, stdout } = await webhookSend(['--url', receiver.url], OTHER_SECRET);
    expect(code).toBe(1);
    expect(stdout).toContain('status: 401');
    expect(stdout).toContain('no_matching_signature');
  });

  it('exits 2 with its usage when a limit is out of range', async () => {
    const { code, stderr } = await webhookSend(['--url', receiver.url, '--timeout-ms', String(2 ** 31)]);
    expect(code).toBe(2);
    expect(stderr).toContain('timeoutMs must be');
    expect(stderr).toContain('usage: merchant-payments webhook send');
  });
});

describe('sendWebhookExample against a receiver that misbehaves', () => {
  const started: HostileReceiver[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((receiver) => receiver.close()));
  });
  const track = <T extends HostileReceiver>(receiver: T) => (started.push(receiver), receiver);
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error,
    );

  it('fails with reason timeout when the receiver never answers', async () => {
    const silent = track(await silentReceiver());
    const error = await failure(sendWebhookExample({ url: silent.url, secret: SECRET, timeoutMs: 200 }));
    expect(error).toBeInstanceOf(WebhookSendError);
    expect(error).toMatchObject({ name: 'WebhookSendError', reason: 'timeout' });
    expect((error as Error).message).toContain('within 200 ms');
    expect(`${(error as Error).stack} ${String((error as Error).cause)}`).not.toContain(SECRET);
    expect(silent.requests).toBe(1);
  });

  it('fails with reason response_too_large and hangs up when the answer never ends', async () => {
    const endless = track(await endlessReceiver(128 * 1024 * 1024));
    const error = await failure(sendWebhookExample({ url: endless.url, secret: SECRET, maxResponseBytes: 64 * 1024 }));
    expect(error).toMatchObject({ name: 'WebhookSendError', reason: 'response_too_large' });
    await endless.state.hungUp;
    // The sender hung up soon after the cap: the receiver wrote the cap plus what the socket buffers hold (about
    // 4 MB here), far from the 128 MiB it writes to a client that reads on.
    expect(endless.state.written).toBeLessThan(48 * 1024 * 1024);
  });

  it('reads an answer of exactly maxResponseBytes, and refuses one a byte longer', async () => {
    const fixed = track(await fixedReceiver('x'.repeat(100)));
    const result = await sendWebhookExample({ url: fixed.url, secret: SECRET, maxResponseBytes: 100 });
    expect([result.status, result.body.length]).toEqual([200, 100]);
    const error = await failure(sendWebhookExample({ url: fixed.url, secret: SECRET, maxResponseBytes: 99 }));
    expect(error).toMatchObject({ reason: 'response_too_large' });
  });

  it.each([302, 307])(
    'fails with reason redirect on a %i to another origin, which receives nothing',
    async (status) => {
      const elsewhere = track(await fixedReceiver('{}'));
      const redirecting = track(await redirectingReceiver(status, `${elsewhere.url}?token=abc`));
      const error = await failure(sendWebhookExample({ url: redirecting.url, secret: SECRET }));
      expect(error).toMatchObject({ name: 'WebhookSendError', reason: 'redirect', location: elsewhere.url });
      expect((error as Error).message).toContain(`redirect to ${elsewhere.url}`);
      expect((error as Error).message).toContain('Webhooks are not redirected');
      expect((error as Error).message).not.toContain('token=abc');
      expect(elsewhere.requests).toBe(0);
    },
  );

  it('fails with reason network when nothing listens, naming the cause', async () => {
    const closed = await fixedReceiver('');
    await closed.close();
    const error = await failure(sendWebhookExample({ url: closed.url, secret: SECRET }));
    expect(error).toMatchObject({ reason: 'network' });
    expect((error as Error).message).toContain('ECONNREFUSED');
  });

  it('refuses limits a timer or a byte count cannot hold, before sending anything', async () => {
    const fixed = track(await fixedReceiver('{}'));
    for (const limits of [
      { timeoutMs: 0 },
      { timeoutMs: 2 ** 31 },
      { timeoutMs: Infinity },
      { timeoutMs: Number.NaN },
      { maxResponseBytes: -1 },
      { maxResponseBytes: 1.5 },
    ]) {
      await expect(
        sendWebhookExample({ url: fixed.url, secret: SECRET, ...limits }),
        JSON.stringify(limits),
      ).rejects.toThrow(RangeError);
    }
    expect(fixed.requests).toBe(0);
  });

  it.each([
    ['timeout', () => silentReceiver(), ['--timeout-ms', '200']],
    ['response_too_large', () => endlessReceiver(128 * 1024 * 1024), []],
    ['redirect', () => redirectingReceiver(307, 'http://127.0.0.1:9/elsewhere'), []],
  ] as const)(
    'makes merchant-payments webhook send exit 1 naming %s, without the secret in its output',
    async (reason, serve, flags) => {
      const hostile = track(await serve());
      const { code, stdout, stderr } = await webhookSend(['--url', hostile.url, ...flags]);
      expect(code).toBe(1);
      expect(stderr).toContain(`merchant-payments webhook send: ${reason}: `);
      expect(`${stdout}${stderr}`).not.toContain(SECRET.slice('whsec_'.length));
    },
  );
});
