import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RedirectError } from '../../packages/contract/src/index.js';
import { refusal } from '../../packages/contract/src/client/redirect.js';
import { createPaymentBody, ids } from './fixtures.js';
import { credentials, testClientA, testClientB } from './harness.js';
import { startScriptedServer, type ScriptedServer } from './server.js';

const payout = { status: 200, body: { data: { id: ids.payout, status: 'created' } } };
const payoutBody = {
  amount: '250.00',
  currency: 'EUR',
  requisite: { type: 'card', card_number: '4111111111111111', card_holder: 'JANE DOE', bank: 'Example Bank' },
};
const redirectTo = (status: number, location: string) => ({ status, headers: { location }, body: { moved: true } });

describe('redirects', () => {
  // `api` plays the service, `elsewhere` another origin (another port of the same host).
  let api: ScriptedServer;
  let elsewhere: ScriptedServer;
  beforeEach(async () => {
    [api, elsewhere] = await Promise.all([startScriptedServer(), startScriptedServer(payout)]);
  });
  afterEach(() => Promise.all([api.close(), elsewhere.close()]));

  it.each([301, 302, 303, 307, 308])(
    'throws RedirectError on a %i to another origin and sends it neither the keys nor the card number',
    async (status) => {
      api.reply(redirectTo(status, `${elsewhere.url}/collect`));
      const client = testClientB(api.url);
      const failure = await client.POST('/merchant/v1/payouts', { body: payoutBody }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RedirectError);
      const error = failure as RedirectError;
      expect(error.status).toBe(status);
      expect(error.location).toBe(`${elsewhere.url}/collect`);
      expect(error.message).toContain(`was redirected (${status}) to ${elsewhere.url}/collect`);
      expect(error.idempotencyKey).toBe(api.requests[0]!.headers['idempotency-key']);
      expect(elsewhere.requests).toEqual([]);
      expect(api.requests).toHaveLength(1);
      for (const secret of Object.values(credentials)) expect(inspect(error, { depth: 10 })).not.toContain(secret);
    },
  );

  it('does not follow a redirect within the same origin either, unless asked to', async () => {
    api.reply(redirectTo(302, '/balance-v2'));
    const failure = await testClientA(api.url)
      .GET('/balance')
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(RedirectError);
    expect((failure as RedirectError).message).toContain("redirect: 'follow-same-origin'");
    expect(api.requests).toHaveLength(1);
  });

  describe("with redirect: 'follow-same-origin'", () => {
    it('follows a 307 on a POST with the same method, body, key and credentials', async () => {
      api.reply(redirectTo(307, '/merchant/v1/payments-moved'), payout);
      const client = testClientB(api.url, { redirect: 'follow-same-origin' });
      const { data, response } = await client.POST('/merchant/v1/payments', { body: createPaymentBody });
      expect(data).toEqual(payout.body);
      const [first, second] = api.requests;
      expect(second!.method).toBe('POST');
      expect(second!.url).toBe('/merchant/v1/payments-moved');
      expect(JSON.parse(second!.body)).toEqual(createPaymentBody);
      expect(second!.headers['idempotency-key']).toBe(first!.headers['idempotency-key']);
      expect(second!.headers['x-secret-key']).toBe(credentials.secretKey);
      expect(response.headers.get('Idempotency-Key')).toBe(first!.headers['idempotency-key']);
    });

    it('follows a 301 on a GET within the origin', async () => {
      api.reply(redirectTo(301, '/payments?limit=5'), {
        status: 200,
        body: { data: [], pagination: { total: 0, limit: 5, offset: 0 } },
      });
      const { data } = await testClientA(api.url, { redirect: 'follow-same-origin' }).GET('/payments');
      expect(data?.pagination.limit).toBe(5);
      expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /payments', 'GET /payments?limit=5']);
    });

    it.each([301, 302, 303])('never turns a POST answered %i into a GET', async (status) => {
      api.reply(redirectTo(status, '/merchant/v1/payments/pay_elsewhere'), payout);
      const client = testClientB(api.url, { redirect: 'follow-same-origin' });
      const failure = await client.POST('/merchant/v1/payments', { body: createPaymentBody }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RedirectError);
      expect((failure as RedirectError).message).toContain('would turn the POST into a GET');
      expect(api.requests.map((r) => r.method)).toEqual(['POST']);
    });

    it('still refuses another origin, and sends it nothing', async () => {
      api.reply(redirectTo(307, `${elsewhere.url}/merchant/v1/payouts`));
      const client = testClientB(api.url, { redirect: 'follow-same-origin' });
      const failure = await client.POST('/merchant/v1/payouts', { body: payoutBody }).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RedirectError);
      expect((failure as RedirectError).message).toContain(`leaves ${api.url} for ${elsewhere.url}`);
      expect(elsewhere.requests).toEqual([]);
    });

    it('stops after five redirects in a row', async () => {
      api.reply(...Array.from({ length: 6 }, (_, i) => redirectTo(302, `/balance?hop=${i + 1}`)));
      const failure = await testClientA(api.url, { redirect: 'follow-same-origin' })
        .GET('/balance')
        .catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(RedirectError);
      expect((failure as RedirectError).message).toContain('6th redirect in a row');
      expect(api.requests).toHaveLength(6);
    });
  });
});

describe('refusal', () => {
  const step = { mode: 'follow-same-origin', method: 'GET', status: 307, hops: 0 } as const;

  it('refuses a downgrade from https to http on the same host', () => {
    const why = refusal({
      ...step,
      from: 'https://api.payments.example/balance',
      location: 'http://api.payments.example/balance',
    });
    expect(why).toContain('leaves https://api.payments.example for http://api.payments.example');
  });

  it('allows a 308 to another path of the same https origin', () => {
    expect(
      refusal({
        ...step,
        from: 'https://api.payments.example/balance',
        location: 'https://api.payments.example/v2/balance',
      }),
    ).toBeUndefined();
  });
});
