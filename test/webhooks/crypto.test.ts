import { afterEach, describe, expect, it, vi } from 'vitest';
import { signWebhook, verifyWebhook } from '../../packages/contract/src/webhooks/index.js';
import { at, delivery, OTHER_SECRET, SECRET, T0 } from './fixtures.js';

const runtime = process as unknown as { getBuiltinModule: (id: string) => unknown };

describe('verifyWebhook', () => {
  afterEach(() => vi.restoreAllMocks());

  it('verifies with Web Crypto where node:crypto is not available', async () => {
    const { body, headers, event } = delivery();
    vi.spyOn(runtime, 'getBuiltinModule').mockReturnValue(undefined);
    const sign = vi.spyOn(crypto.subtle, 'sign');
    await expect(verifyWebhook(body, headers, SECRET, { now: at(T0) })).resolves.toEqual(event);
    await expect(verifyWebhook(body, headers, OTHER_SECRET, { now: at(T0) })).rejects.toMatchObject({
      reason: 'no_matching_signature',
    });
    expect(sign).toHaveBeenCalled();
  });

  it('signs identically with node:crypto and with Web Crypto', async () => {
    const { body, event } = delivery();
    const input = { id: event.id, body, secret: [SECRET, OTHER_SECRET], timestamp: T0 };
    const withNode = await signWebhook(input);
    vi.spyOn(runtime, 'getBuiltinModule').mockReturnValue(undefined);
    expect(await signWebhook(input)).toEqual(withNode);
  });
});
