// X-Signature is bounded by the contract's maxLength, so a huge list of signatures costs no hashing.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { createNodeWebhookHandler, verifyWebhook } from '../../packages/contract/src/webhooks/index.js';
import { MAX_SIGNATURE_LENGTH } from '../../packages/contract/src/webhooks/headers.js';
import { at, delivery, SECRET, secretOf, standardSigned, T0 } from './fixtures.js';
import { post, serveNode } from './server.js';

type NodeCrypto = typeof import('node:crypto');
const runtime = process as unknown as { getBuiltinModule: (id: string) => unknown };

/** Counts the HMACs the verifier computes with node:crypto. */
function countHmacs() {
  const original = runtime.getBuiltinModule.bind(process);
  const real = original('node:crypto') as NodeCrypto;
  const createHmac = vi.fn(real.createHmac);
  vi.spyOn(runtime, 'getBuiltinModule').mockImplementation((id) =>
    id === 'node:crypto' ? { createHmac, timingSafeEqual: real.timingSafeEqual } : original(id),
  );
  return createHmac;
}

/** X-Signature with `count` entries: well-formed signatures made with a secret the receiver lacks, then the valid one. */
function signatureList(body: string, count: number): string {
  const valid = standardSigned(body)['X-Signature']!;
  const wrong = standardSigned(body, { secret: secretOf(99) })['X-Signature']!;
  return [...Array<string>(count - 1).fill(wrong), valid].join(' ');
}

describe('X-Signature', () => {
  afterEach(() => vi.restoreAllMocks());

  it("is bounded by the maxLength of the contract's X-Signature schema", () => {
    const spec = parse(
      readFileSync(new URL('../../packages/contract/generated/openapi/variant-b.yaml', import.meta.url), 'utf8'),
    );
    expect(spec.components.parameters.Signature.schema.maxLength).toBe(MAX_SIGNATURE_LENGTH);
  });

  it('accepts 21 signatures, the most that fit in the bound, and rejects 22 as malformed_signature', async () => {
    const { body, headers, event } = delivery();
    const fits = signatureList(body, 21);
    expect(fits.length).toBeLessThanOrEqual(MAX_SIGNATURE_LENGTH);
    await expect(verifyWebhook(body, { ...headers, 'X-Signature': fits }, SECRET, { now: at(T0) })).resolves.toEqual(
      event,
    );
    const tooMany = { ...headers, 'X-Signature': signatureList(body, 22) };
    await expect(verifyWebhook(body, tooMany, SECRET, { now: at(T0) })).rejects.toMatchObject({
      reason: 'malformed_signature',
    });
  });

  it('gets a 401 malformed_signature for 100,000 entries, without one HMAC, though a valid signature is among them', async () => {
    const secrets = Array.from({ length: 10 }, (_, index) => secretOf(index + 1));
    const onEvent = vi.fn();
    const onError = vi.fn();
    const handler = createNodeWebhookHandler({ secrets, now: at(T0), onEvent, onError });
    // Note: the receiver takes headers far larger than Node's 16 KiB default, as a server behind a lenient proxy may.
    const receiver = await serveNode(handler, { maxHeaderSize: 8 * 1024 * 1024 });
    try {
      const hmacs = countHmacs();
      const { body, headers } = delivery();
      const accepted = await post(receiver.url, [body], { ...headers, 'X-Signature': signatureList(body, 10) });
      expect(accepted.status).toBe(200);
      expect(hmacs).toHaveBeenCalled();
      hmacs.mockClear();

      const flood = signatureList(body, 100_000);
      const answer = await post(receiver.url, [body], { ...headers, 'X-Signature': flood }, { timeoutMs: 20_000 });
      expect([answer.status, JSON.parse(answer.body).code]).toEqual([401, 'malformed_signature']);
      expect(hmacs).not.toHaveBeenCalled();
      expect(onEvent).toHaveBeenCalledTimes(1);
      expect(onError.mock.calls[0]?.[0]).toMatchObject({
        message: expect.stringContaining('longer than the 1024 characters'),
      });
    } finally {
      await receiver.close();
    }
  });
});
