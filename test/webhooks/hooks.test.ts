// A merchant hook that throws must neither crash the receiver's process nor leave a request unanswered.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFetchWebhookHandler, type WebhookHandlerOptions } from '../../packages/contract/src/webhooks/index.js';
import { at, delivery, OTHER_SECRET, SECRET, standardSigned, T0 } from './fixtures.js';
import { post, serveAdapter, type Receiver } from './server.js';

const crashes: unknown[] = [];
const onCrash = (error: unknown): void => void crashes.push(error);

/** Forged deliveries and the status each must get. */
function forgeries() {
  const { body, headers } = delivery();
  return [
    { name: 'a wrong signature', body, headers: standardSigned(body, { secret: OTHER_SECRET }), status: 401 },
    { name: 'a malformed signature', body, headers: { ...headers, 'X-Signature': 'v1,forged' }, status: 401 },
    { name: 'no X-Event-ID', body, headers: { ...headers, 'X-Event-ID': '' }, status: 400 },
  ];
}

/** Lets any stray rejection or exception of the answered requests surface before the assertions. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

const throwing = {
  sync: () => {
    throw new Error('onError is broken');
  },
  async: () => Promise.reject(new Error('onError is broken')),
};

beforeAll(() => {
  process.on('unhandledRejection', onCrash);
  process.on('uncaughtException', onCrash);
});
afterAll(() => {
  process.off('unhandledRejection', onCrash);
  process.off('uncaughtException', onCrash);
});
afterEach(() => expect(crashes.splice(0)).toEqual([]));

describe.each(Object.entries(serveAdapter))('a %s receiver whose hooks throw', (_name, serve) => {
  const receivers: Receiver[] = [];
  afterAll(() => Promise.all(receivers.map((receiver) => receiver.close())));
  const start = async (options: Partial<WebhookHandlerOptions<false>>) => {
    const receiver = await serve({ secrets: SECRET, now: at(T0), onEvent: () => {}, ...options });
    receivers.push(receiver);
    return receiver;
  };

  it.each(Object.entries(throwing))(
    'answers forged deliveries 401/400 and keeps serving when onError throws (%s)',
    async (_kind, onError) => {
      const hook = vi.fn(onError);
      const onEvent = vi.fn();
      const receiver = await start({ onError: hook, onEvent });
      for (const forged of forgeries()) {
        const answer = await post(receiver.url, [forged.body], forged.headers);
        expect(answer.status, forged.name).toBe(forged.status);
      }
      const { body, headers } = delivery();
      expect((await post(receiver.url, [body], headers)).status).toBe(200);
      await settle();
      expect(hook).toHaveBeenCalledTimes(3);
      expect(onEvent).toHaveBeenCalledTimes(1);
      expect(crashes).toEqual([]);
    },
  );

  it.each(Object.entries(throwing))(
    'answers 500 handler_failed when onEvent and onError both throw (%s)',
    async (kind, onError) => {
      const onEvent =
        kind === 'sync'
          ? () => {
              throw new Error('onEvent is broken');
            }
          : () => Promise.reject(new Error('onEvent is broken'));
      const receiver = await start({ onError, onEvent });
      const { body, headers } = delivery();
      const answer = await post(receiver.url, [body], headers);
      expect([answer.status, JSON.parse(answer.body).code]).toEqual([500, 'handler_failed']);
      expect(answer.body).not.toContain('broken');
      await settle();
      expect(crashes).toEqual([]);
    },
  );

  it('answers 500 handler_failed when claim and release throw, and 200 once they work again', async () => {
    let broken = true;
    const onEvent = vi.fn(() => Promise.reject(new Error('onEvent is broken')));
    const dedupe = {
      claim: () => (broken ? Promise.reject(new Error('claim is broken')) : true),
      release: () => {
        throw new Error('release is broken');
      },
    };
    const onError = vi.fn();
    const receiver = await start({ onError, onEvent, dedupe });
    const { body, headers } = delivery();
    const claimFailed = await post(receiver.url, [body], headers);
    broken = false;
    const releaseFailed = await post(receiver.url, [body], headers);
    expect([claimFailed.status, releaseFailed.status]).toEqual([500, 500]);
    expect(onEvent).toHaveBeenCalledTimes(1);
    const reported = onError.mock.calls.map(([error]) => (error as Error).message);
    expect(reported).toEqual(['claim is broken', 'release is broken', 'onEvent is broken']);
    await settle();
    expect(crashes).toEqual([]);
  });
});

describe('createFetchWebhookHandler', () => {
  it('always resolves to a Response, even when onError throws', async () => {
    const handle = createFetchWebhookHandler({
      secrets: SECRET,
      now: at(T0),
      onEvent: () => {},
      onError: throwing.sync,
    });
    for (const forged of forgeries()) {
      const request = new Request('http://receiver.test/webhooks', {
        method: 'POST',
        body: forged.body,
        headers: forged.headers,
      });
      const response = await handle(request);
      expect([forged.name, response.status]).toEqual([forged.name, forged.status]);
    }
  });
});
