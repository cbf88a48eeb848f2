import { describe, expect, it, vi } from 'vitest';
import {
  createFetchWebhookHandler,
  createMemoryDedupe,
  type WebhookEvent,
} from '../../packages/contract/src/webhooks/index.js';
import { at, delivery, OTHER_SECRET, SECRET, standardSigned, T0 } from './fixtures.js';

const post = (body: BodyInit, headers: Record<string, string>) =>
  new Request('http://receiver.test/webhooks', {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });

function handler(overrides: Partial<Parameters<typeof createFetchWebhookHandler>[0]> = {}) {
  const onEvent = vi.fn<(event: WebhookEvent) => void>();
  const handle = createFetchWebhookHandler({ secrets: SECRET, now: at(T0), onEvent, ...overrides });
  return { handle, onEvent };
}

describe('createFetchWebhookHandler', () => {
  it('answers 200 with a JSON object and hands the typed event and its id to onEvent', async () => {
    const { body, headers, event } = delivery();
    const { handle, onEvent } = handler();
    const response = await handle(post(body, headers));
    expect([response.status, response.headers.get('content-type'), await response.json()]).toEqual([
      200,
      'application/json',
      {},
    ]);
    expect(onEvent).toHaveBeenCalledWith(event, { id: event.id, layout: 'later' });
  });

  it.each([
    ['no_matching_signature', 401, { secrets: OTHER_SECRET }, {}],
    ['timestamp_too_old', 401, { now: at(T0 + 3600) }, {}],
    ['timestamp_in_future', 401, { now: at(T0 - 3600) }, {}],
    ['malformed_signature', 401, {}, { 'X-Signature': 'nope' }],
    ['malformed_timestamp', 401, {}, { 'X-Timestamp': 'soon' }],
    ['missing_header', 400, {}, { 'X-Event-ID': '' }],
    ['header_mismatch', 400, {}, { 'X-Event-Type': 'appeal.status_changed' }],
  ] as const)('answers %s with %i and a problem body naming it', async (reason, status, options, headerChanges) => {
    const { body, headers } = delivery();
    const { handle, onEvent } = handler(options);
    const response = await handle(post(body, { ...headers, ...headerChanges }));
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(await response.json()).toMatchObject({ status, code: reason, detail: expect.any(String) });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('answers a body that breaks the schema with 400 and the failing pointers', async () => {
    const { event } = delivery();
    const body = JSON.stringify({ ...event, created_at: 'yesterday' });
    const { handle } = handler();
    const response = await handle(post(body, standardSigned(body)));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'schema_mismatch', errors: [{ pointer: '/created_at' }] });
  });

  it('acknowledges a claimed X-Event-ID with 200 without calling onEvent again', async () => {
    const { body, headers } = delivery();
    const { handle, onEvent } = handler({ dedupe: createMemoryDedupe() });
    expect((await handle(post(body, headers))).status).toBe(200);
    const again = await handle(post(body, headers));
    expect([again.status, await again.json()]).toEqual([200, { duplicate: true }]);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it('answers 500 when onEvent throws, releasing the claim without leaking the error', async () => {
    const { body, headers } = delivery();
    const dedupe = { claim: vi.fn(() => true), release: vi.fn() };
    const onError = vi.fn();
    const { handle } = handler({
      onEvent: () => Promise.reject(new Error('database password wrong')),
      dedupe,
      onError,
    });
    const response = await handle(post(body, headers));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('password');
    expect(dedupe.release).toHaveBeenCalledWith(headers['X-Event-ID']);
    expect(onError).toHaveBeenCalledWith(expect.any(Error), 500);
  });

  it('answers 405 with Allow: POST to other methods', async () => {
    const { handle } = handler();
    const response = await handle(new Request('http://receiver.test/webhooks'));
    expect([response.status, response.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('answers 413 to a body over maxBodyBytes, declared or streamed', async () => {
    const { body, headers } = delivery();
    const { handle, onEvent } = handler({ maxBodyBytes: 64 });
    expect((await handle(post(body, headers))).status).toBe(413);
    const stream = new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(body)), c.close()) });
    const streamed = new Request('http://receiver.test/webhooks', {
      method: 'POST',
      body: stream,
      headers,
      duplex: 'half',
    } as RequestInit);
    expect((await handle(streamed)).status).toBe(413);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('rejects a malformed secret when the handler is created', () => {
    expect(() => createFetchWebhookHandler({ secrets: 'whsec_short', onEvent: () => {} })).toThrow(TypeError);
  });

  it('rejects the replaced isDuplicate and markProcessed hooks, a dedupe without release and a bad readTimeoutMs when created', () => {
    const replaced = { secrets: SECRET, onEvent: () => {}, isDuplicate: () => false } as Parameters<
      typeof createFetchWebhookHandler
    >[0];
    expect(() => createFetchWebhookHandler(replaced)).toThrow(/replaced by dedupe/);
    const halfDedupe = { claim: () => true } as unknown as ReturnType<typeof createMemoryDedupe>;
    expect(() => createFetchWebhookHandler({ secrets: SECRET, onEvent: () => {}, dedupe: halfDedupe })).toThrow(
      /claim\(id\) and release\(id\)/,
    );
    for (const readTimeoutMs of [0, -1, 1.5, Number.POSITIVE_INFINITY, Number.NaN, 2 ** 31]) {
      expect(
        () => createFetchWebhookHandler({ secrets: SECRET, onEvent: () => {}, readTimeoutMs }),
        String(readTimeoutMs),
      ).toThrow(/readTimeoutMs/);
    }
    expect(() =>
      createFetchWebhookHandler({ secrets: SECRET, onEvent: () => {}, readTimeoutMs: 2 ** 31 - 1 }),
    ).not.toThrow();
  });
});
