import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createMemoryDedupe,
  createNodeWebhookHandler,
  type WebhookDedupe,
  type WebhookHandlerOptions,
} from '../../packages/contract/src/webhooks/index.js';
import { at, delivery, SECRET, T0 } from './fixtures.js';
import { post, serveNode, type Receiver } from './server.js';

const receivers: Receiver[] = [];
afterEach(async () => void (await Promise.all(receivers.splice(0).map((receiver) => receiver.close()))));

async function receiver(options: Partial<WebhookHandlerOptions<false>>): Promise<Receiver> {
  const started = await serveNode(
    createNodeWebhookHandler({ secrets: SECRET, now: at(T0), onEvent: () => {}, ...options }),
  );
  receivers.push(started);
  return started;
}

/** A promise that resolves once `open()` is called, or after `ms` so that a broken receiver fails the test rather than hangs it. */
function gate(ms = 2000) {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
    setTimeout(resolve, ms);
  });
  return { opened, open: () => open() };
}

describe('a Node receiver with dedupe', () => {
  it('runs onEvent once for five concurrent deliveries of one event', async () => {
    const memory = createMemoryDedupe();
    const allClaimed = gate();
    let claims = 0;
    // Note: onEvent waits until every delivery has claimed, so all five are in flight together.
    const dedupe: WebhookDedupe = {
      claim(id) {
        claims += 1;
        if (claims === 5) allClaimed.open();
        return memory.claim(id);
      },
      release: (id) => memory.release(id),
    };
    const onEvent = vi.fn(() => allClaimed.opened);
    const { url } = await receiver({ dedupe, onEvent });
    const { body, headers } = delivery();
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(url, [body], headers)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((answer) => answer.body).sort()).toEqual([...Array(4).fill('{"duplicate":true}'), '{}']);
    expect(claims).toBe(5);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it('answers 500 when onEvent throws and releases the claim, so the redelivery runs onEvent again and succeeds', async () => {
    const onEvent = vi.fn().mockRejectedValueOnce(new Error('database unavailable')).mockResolvedValue(undefined);
    const { url } = await receiver({ dedupe: createMemoryDedupe(), onEvent });
    const { body, headers } = delivery();
    const failed = await post(url, [body], headers);
    const retried = await post(url, [body], headers);
    const duplicate = await post(url, [body], headers);
    expect([failed.status, JSON.parse(failed.body).code]).toEqual([500, 'handler_failed']);
    expect([retried.status, retried.body]).toEqual([200, '{}']);
    expect([duplicate.status, duplicate.body]).toEqual([200, '{"duplicate":true}']);
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it('answers 500 without calling onEvent when claim throws, rejects, or returns no boolean', async () => {
    const claims: WebhookDedupe['claim'][] = [
      () => {
        throw new Error('unique index missing');
      },
      () => Promise.reject(new Error('connection refused')),
      () => undefined as unknown as boolean,
    ];
    for (const claim of claims) {
      const onEvent = vi.fn();
      const onError = vi.fn();
      const { url } = await receiver({ dedupe: { claim, release: () => {} }, onEvent, onError });
      const { body, headers } = delivery();
      const answer = await post(url, [body], headers);
      expect([answer.status, JSON.parse(answer.body).code]).toEqual([500, 'handler_failed']);
      expect(onEvent).not.toHaveBeenCalled();
      expect(onError).toHaveBeenCalledWith(expect.any(Error), 500);
    }
  });
});

describe('createMemoryDedupe', () => {
  it('lets one claim of an id through until it is released', () => {
    const dedupe = createMemoryDedupe();
    expect([dedupe.claim('evt_1'), dedupe.claim('evt_1'), dedupe.claim('evt_2')]).toEqual([true, false, true]);
    dedupe.release('evt_1');
    expect([dedupe.claim('evt_1'), dedupe.claim('evt_1')]).toEqual([true, false]);
  });

  it('forgets a claim after ttlSeconds', () => {
    let now = 0;
    const dedupe = createMemoryDedupe({ ttlSeconds: 60, now: () => now });
    expect(dedupe.claim('evt_1')).toBe(true);
    now = 59_999;
    expect(dedupe.claim('evt_1')).toBe(false);
    now = 60_000;
    expect(dedupe.claim('evt_1')).toBe(true);
  });

  it('keeps at most maxEntries ids, forgetting the oldest first', () => {
    const dedupe = createMemoryDedupe({ maxEntries: 3 });
    for (const id of ['evt_1', 'evt_2', 'evt_3', 'evt_4']) expect(dedupe.claim(id)).toBe(true);
    expect([dedupe.claim('evt_4'), dedupe.claim('evt_3'), dedupe.claim('evt_2')]).toEqual([false, false, false]);
    expect(dedupe.claim('evt_1')).toBe(true);
  });

  it('rejects a maxEntries or ttlSeconds that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createMemoryDedupe({ maxEntries: bad }), String(bad)).toThrow(/maxEntries/);
      expect(() => createMemoryDedupe({ ttlSeconds: bad }), String(bad)).toThrow(/ttlSeconds/);
    }
  });
});
