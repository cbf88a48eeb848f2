// Tests of your integration against both variants' mocks at once, with Node's own test runner:
//   npx merchant-payments mock --variant a,b -- node --test payments.test.mjs
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createVariantAClient, createVariantBClient } from '@merchant-payments/contract';

// Each URL is the server's root and never ends with /merchant/v1: the Variant B client adds the prefix itself.
const urlA = process.env.MERCHANT_PAYMENTS_MOCK_URL_A ?? 'http://127.0.0.1:4010';
const urlB = process.env.MERCHANT_PAYMENTS_MOCK_URL_B ?? 'http://127.0.0.1:4011';

test('Variant A: a payment reads back with its status', async () => {
  const client = createVariantAClient({ baseUrl: urlA, accessToken: 'test-token' });
  const { data, error } = await client.GET('/payments/{id}', { params: { path: { id: 'pay_8f3k2m9q4w7x' } }, headers: { Prefer: 'example=payment_failed' } });
  assert.equal(error, undefined);
  assert.equal(data.data.status, 'failed');
});

test('Variant B: a rate-limited call comes back as a 429 problem', async () => {
  // The mock's 429 asks for Retry-After: 30. With the default retries the client would wait twice, 10 s each
  // (maxDelayMs), before giving up; `retry: false` makes one attempt, `retry: { maxDelayMs: 50 }` waits 50 ms.
  const client = createVariantBClient({ baseUrl: urlB, publicKey: 'pk_test', secretKey: 'sk_test', retry: false });
  const { error, response } = await client.GET('/merchant/v1/balance', { headers: { Prefer: 'code=429' } });
  assert.equal(response.status, 429);
  assert.equal(error.code, 'rate_limited');
});
