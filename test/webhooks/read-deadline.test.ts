// A sender that trickles its body gets 408 once the adapter's read deadline passes, instead of holding the connection.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { at, delivery, SECRET, T0 } from './fixtures.js';
import { post, serveAdapter, type Receiver } from './server.js';

describe.each(Object.entries(serveAdapter))('a %s receiver with readTimeoutMs: 200', (_name, serve) => {
  const onEvent = vi.fn();
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await serve({ secrets: SECRET, now: at(T0), onEvent, readTimeoutMs: 200 });
  });
  afterAll(() => receiver.close());

  it('answers 408 body_timeout to a body trickled one byte every 100 ms', async () => {
    const { body, headers } = delivery();
    const bytes = [...Buffer.from(body)].map((byte) => Buffer.of(byte));
    const trickle = { ...headers, 'content-length': String(bytes.length) };
    const answer = await post(receiver.url, bytes, trickle, { gapMs: 100, timeoutMs: 5000 });
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 408, code: 'body_timeout' });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('still takes a body that arrives within the deadline', async () => {
    const { body, headers } = delivery();
    const answer = await post(receiver.url, [body], headers);
    expect(answer.status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });
});
