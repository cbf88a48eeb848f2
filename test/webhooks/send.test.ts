import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookExamples } from '../../generated/validators/webhook-examples.js';
import {
  createFetchWebhookHandler,
  createNodeWebhookHandler,
  sendWebhookExample,
  type EarlierWebhookEvent,
  type WebhookEvent,
  type WebhookHandlerContext,
} from '../../src/webhooks/index.js';
import { exampleTypes, OTHER_SECRET, SECRET } from './fixtures.js';
import { serveFetch, serveNode, type Receiver } from './server.js';

type Delivered = { event: WebhookEvent | EarlierWebhookEvent; context: WebhookHandlerContext };

/** Options shared by both adapters: a strict receiver and one that also takes the earlier layout, de-duplicating. */
function receiverOptions(delivered: Delivered[]) {
  const seen = new Set<string>();
  return {
    secrets: SECRET,
    allowEarlierLayout: true as boolean,
    onEvent: (event: WebhookEvent | EarlierWebhookEvent, context: WebhookHandlerContext) => void delivered.push({ event, context }),
    isDuplicate: (id: string) => seen.has(id),
    markProcessed: (id: string) => void seen.add(id),
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
    const result = await sendWebhookExample({ url: receiver.url, secret: SECRET, type, id: `evt_${type.split('.')[0]}_1` });
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

describe('npm run webhook:send', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await serveNode(createNodeWebhookHandler({ secrets: SECRET, onEvent: () => {} }));
  });
  afterAll(() => receiver.close());

  it('prints the status and body of the receiver and exits 0 on 2xx', async () => {
    const run = promisify(execFile);
    const args = ['scripts/webhook-send.mjs', '--url', receiver.url, '--secret', SECRET, '--type', 'payout.status_changed'];
    const { stdout } = await run(process.execPath, args);
    expect(stdout).toContain('sent payout.status_changed');
    expect(stdout).toContain('status: 200');
    expect(stdout).toContain('body: {}');
  });

  it('exits 1 and prints the problem when the receiver refuses the delivery', async () => {
    const run = promisify(execFile);
    const args = ['scripts/webhook-send.mjs', '--url', receiver.url, '--secret', OTHER_SECRET];
    const failure = await run(process.execPath, args).then(() => undefined, (error: { code: number; stdout: string }) => error);
    expect(failure?.code).toBe(1);
    expect(failure?.stdout).toContain('status: 401');
    expect(failure?.stdout).toContain('no_matching_signature');
  });
});
