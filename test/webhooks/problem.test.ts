// What a rejected sender is told: the reason and a fixed text, never this receiver's clock or how many secrets it holds.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createNodeWebhookHandler, WebhookVerificationError } from '../../packages/contract/src/webhooks/index.js';
import {
  at,
  delivery,
  exampleEvent,
  OTHER_SECRET,
  ROTATED_SECRET,
  SECRET,
  secretOf,
  standardSigned,
  T0,
} from './fixtures.js';
import { post, serveNode, type Receiver } from './server.js';

describe('the answer of a Node receiver to a rejected delivery', () => {
  const onError = vi.fn();
  let receiver: Receiver;
  // Note: the receiver's clock stands 412 s after the delivery, and it holds two secrets.
  beforeAll(async () => {
    const handler = createNodeWebhookHandler({
      secrets: [OTHER_SECRET, ROTATED_SECRET],
      now: at(T0 + 412),
      onEvent: () => {},
      onError,
    });
    receiver = await serveNode(handler);
  });
  afterAll(() => receiver.close());

  /** POSTs a delivery and returns the answer's status, its parsed body and its text, and the error onError got. */
  async function reject(body: string, headers: Record<string, string>) {
    onError.mockClear();
    const answer = await post(receiver.url, [body], headers);
    const [error, status] = onError.mock.calls[0] ?? [];
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(status).toBe(answer.status);
    return { ...answer, problem: JSON.parse(answer.body), error: error as WebhookVerificationError };
  }

  it('tells a stale delivery timestamp_too_old without its age, and onError the age', async () => {
    const { body } = delivery();
    const { status, problem, body: text, error } = await reject(body, standardSigned(body, { secret: OTHER_SECRET }));
    expect([status, problem.code]).toEqual([401, 'timestamp_too_old']);
    expect(text).not.toContain('412');
    expect(text).not.toContain('300');
    expect(error.message).toContain('412 s in the past, beyond the 300 s tolerance');
  });

  it('tells a delivery from the future timestamp_in_future without how far ahead it is', async () => {
    const { body } = delivery();
    const {
      problem,
      body: text,
      error,
    } = await reject(body, standardSigned(body, { secret: OTHER_SECRET, timestamp: T0 + 824 }));
    expect(problem.code).toBe('timestamp_in_future');
    expect(text).not.toContain('412');
    expect(error.message).toContain('412 s in the future');
  });

  it('tells a wrong-secret delivery no_matching_signature without how many secrets the receiver holds', async () => {
    const { body } = delivery();
    const {
      status,
      problem,
      body: text,
      error,
    } = await reject(body, standardSigned(body, { secret: SECRET, timestamp: T0 + 412 }));
    expect([status, problem.code]).toEqual([401, 'no_matching_signature']);
    expect(text).not.toMatch(/\b2\b/);
    expect(text).not.toContain('secret(s)');
    expect(error.message).toContain('any of the 2 configured secret(s)');
  });

  it('gives every rejection of one reason the same detail, whatever the verifier found', async () => {
    const { body } = delivery();
    const signed = (secret: string) => standardSigned(body, { secret, timestamp: T0 + 412 });
    const one = signed(SECRET);
    const three = {
      ...one,
      'X-Signature': [SECRET, secretOf(4), secretOf(5)].map((secret) => signed(secret)['X-Signature']).join(' '),
    };
    const [first, second] = [await reject(body, one), await reject(body, three)];
    expect(first.error.message).not.toBe(second.error.message);
    expect(second.error.message).toContain('None of the 3 v1 signature(s)');
    expect(second.problem).toEqual(first.problem);
  });

  it('lists the failing pointers of a schema mismatch, which only a genuine sender can reach', async () => {
    const body = JSON.stringify({ ...exampleEvent(), created_at: 'yesterday' });
    const { status, problem } = await reject(
      body,
      standardSigned(body, { secret: ROTATED_SECRET, timestamp: T0 + 412 }),
    );
    expect([status, problem.code]).toEqual([400, 'schema_mismatch']);
    expect(problem.errors).toEqual([{ pointer: '/created_at', detail: expect.any(String) }]);
  });
});
