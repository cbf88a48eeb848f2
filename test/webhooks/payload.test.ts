// Parsing a signed body: prototype-poisoning keys and a byte order mark are refused, for text and bytes alike.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createFetchWebhookHandler,
  createNodeWebhookHandler,
  verifyWebhook,
  WebhookVerificationError,
} from '../../packages/contract/src/webhooks/index.js';
import { at, delivery, SECRET, standardSigned, T0 } from './fixtures.js';
import { post, serveFetch, serveNode, type Receiver } from './server.js';

/** The contract's payment example with `entry` (JSON text) put first into its free-form metadata. */
function withMetadata(entry: string): string {
  const { body } = delivery();
  const changed = body.replace('"metadata":{', `"metadata":{${entry},`);
  expect(changed).not.toBe(body);
  return changed;
}

// Note: JSON text, because a "__proto__" key in an object literal sets the prototype instead of creating a key.
const POISONED: [name: string, body: string][] = [
  ['__proto__', withMetadata('"__proto__":{"isAdmin":true}')],
  ['escaped __proto__', withMetadata('"\\u005f_proto__":{"isAdmin":true}')],
  ['constructor.prototype', withMetadata('"constructor":{"prototype":{"isAdmin":true}}')],
];
const BOM = '\uFEFF';

/** The reason and message verifyWebhook rejects a body with. */
async function rejection(body: string | Uint8Array | ArrayBuffer, headers: Record<string, string>) {
  const error = await verifyWebhook(body, headers, SECRET, { now: at(T0) }).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return { reason: (error as WebhookVerificationError).reason, message: (error as WebhookVerificationError).message };
}

describe('verifyWebhook', () => {
  it('refuses a signed body with a __proto__ key that JSON.parse would let poison Object.assign', async () => {
    const [, body] = POISONED[0]!;
    const copied = Object.assign({}, JSON.parse(body).data.metadata) as { isAdmin?: boolean };
    expect(copied.isAdmin).toBe(true);
    const { reason, message } = await rejection(body, standardSigned(body));
    expect(reason).toBe('invalid_json');
    expect(message).toContain('"__proto__" or "constructor.prototype" key');
  });

  it.each(POISONED)('refuses a signed body with a %s key as invalid_json', async (_name, body) => {
    expect((await rejection(body, standardSigned(body))).reason).toBe('invalid_json');
  });

  it('accepts a plain "constructor" value in metadata, which cannot reach a prototype', async () => {
    const body = withMetadata('"constructor":"kiosk"');
    const event = await verifyWebhook(body, standardSigned(body), SECRET, { now: at(T0) });
    expect(Object.getOwnPropertyDescriptor(event.data.metadata, 'constructor')?.value).toBe('kiosk');
  });

  it('treats a BOM-prefixed signed body alike as text, bytes and an ArrayBuffer: invalid_json, naming the BOM', async () => {
    const { body, event } = delivery();
    const text = BOM + body;
    const bytes = new TextEncoder().encode(text);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const headers = standardSigned(text, { id: event.id });
    const outcomes = [
      await rejection(text, headers),
      await rejection(bytes, headers),
      await rejection(bytes.slice().buffer, headers),
    ];
    expect(outcomes[0]).toEqual({ reason: 'invalid_json', message: expect.stringContaining('byte order mark') });
    expect(outcomes).toEqual([outcomes[0], outcomes[0], outcomes[0]]);
  });
});

describe('receivers at 127.0.0.1 given a hostile body', () => {
  const onEvent = vi.fn();
  const onError = vi.fn();
  const receivers: Record<string, Receiver> = {};

  beforeAll(async () => {
    const options = { secrets: SECRET, now: at(T0), onEvent, onError };
    const node = createNodeWebhookHandler(options);
    receivers['node (bytes)'] = await serveNode(node);
    // Stands in for a text body parser (express.text()): the body reaches the handler as a string on req.body.
    receivers['node (text)'] = await serveNode(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(Buffer.concat(chunks));
      await node(Object.assign(req, { body: text }), res);
    });
    receivers['fetch'] = await serveFetch(createFetchWebhookHandler(options));
  });
  afterAll(() => Promise.all(Object.values(receivers).map((receiver) => receiver.close())));

  it.each(POISONED)('answers a signed body with a %s key 400 invalid_json on every receiver', async (_name, body) => {
    for (const [kind, { url }] of Object.entries(receivers)) {
      onError.mockClear();
      const answer = await post(url, [body], standardSigned(body));
      expect([kind, answer.status, JSON.parse(answer.body).code]).toEqual([kind, 400, 'invalid_json']);
      expect(onError.mock.calls[0]?.[0]).toMatchObject({
        reason: 'invalid_json',
        message: expect.stringContaining('__proto__'),
      });
    }
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers a BOM-prefixed signed body the same on every receiver, whether it arrives as bytes or as text', async () => {
    const { body, event } = delivery();
    const text = BOM + body;
    const answers = [];
    for (const { url } of Object.values(receivers))
      answers.push(await post(url, [Buffer.from(text)], standardSigned(text, { id: event.id })));
    expect(answers.map((answer) => [answer.status, JSON.parse(answer.body).code])).toEqual(
      Array(3).fill([400, 'invalid_json']),
    );
    expect(onEvent).not.toHaveBeenCalled();
  });
});
