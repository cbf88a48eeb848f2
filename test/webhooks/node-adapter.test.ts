import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createNodeWebhookHandler,
  signWebhook,
  type NodeWebhookHandler,
} from '../../packages/contract/src/webhooks/index.js';
import { delivery, SECRET } from './fixtures.js';
import { post, serveNode, type Receiver } from './server.js';

describe('createNodeWebhookHandler', () => {
  const onEvent = vi.fn();
  const onError = vi.fn();
  const receivers: Receiver[] = [];
  let limited: Receiver;
  let consumed: Receiver;
  let preParsed: Receiver;

  beforeAll(async () => {
    const handle: NodeWebhookHandler = createNodeWebhookHandler({
      secrets: SECRET,
      onEvent,
      onError,
      maxBodyBytes: 1024,
      toleranceSeconds: 1e12,
    });
    limited = await serveNode(handle);
    // Note: stands in for a JSON body parser that read the stream before the handler ran.
    consumed = await serveNode(async (req, res) => {
      for await (const _chunk of req);
      await handle(req, res);
    });
    // Stands in for express.raw(): the raw bytes are on req.body.
    preParsed = await serveNode(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      await handle(Object.assign(req, { body: Buffer.concat(chunks) }), res);
    });
    receivers.push(limited, consumed, preParsed);
  });
  afterAll(() => Promise.all(receivers.map((receiver) => receiver.close())));

  it('answers 413 to a streamed body over maxBodyBytes without calling onEvent', async () => {
    const { headers } = delivery();
    const answer = await post(limited.url, [Buffer.alloc(800, 32), Buffer.alloc(800, 32)], headers);
    expect([answer.status, JSON.parse(answer.body).code]).toEqual([413, 'body_too_large']);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('reads a chunked body within the limit and verifies it', async () => {
    const { body, headers } = delivery();
    const bytes = Buffer.from(body);
    const answer = await post(limited.url, [bytes.subarray(0, 10), bytes.subarray(10)], headers);
    expect(answer.status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it('answers 400 invalid_json to a signed body that is not JSON', async () => {
    const body = 'not json';
    const headers = await signWebhook({ id: 'evt_1', body, secret: SECRET });
    const answer = await post(limited.url, [Buffer.from(body)], headers);
    expect([answer.status, JSON.parse(answer.body).code]).toEqual([400, 'invalid_json']);
  });

  it('answers 500 raw_body_unavailable when a body parser consumed the stream first', async () => {
    const { body, headers } = delivery();
    const answer = await post(consumed.url, [Buffer.from(body)], headers);
    expect([answer.status, JSON.parse(answer.body).code]).toEqual([500, 'raw_body_unavailable']);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringContaining('before JSON body parsers') }),
      500,
    );
  });

  it('uses raw bytes already on req.body (express.raw)', async () => {
    const { body, headers } = delivery();
    const answer = await post(preParsed.url, [Buffer.from(body)], headers);
    expect(answer.status).toBe(200);
  });
});
