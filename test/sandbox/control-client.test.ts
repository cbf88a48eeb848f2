// createSandboxControlClient: the control API's paths, bodies and credentials as sent (through an injected fetch),
// the shared transport's retries and Idempotency-Keys, configuration errors, and the types it gives callers.
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { parse } from 'yaml';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createSandboxControlClient,
  type SandboxControl,
  type SandboxControlClient,
  type SandboxControlClientOptions,
} from '@merchant-payments/sandbox';
import { ClientConfigError, type Problem, type UndocumentedErrorBody } from '../../packages/contract/src/index.js';

const credentials = {
  accessToken: 'tok_test_5Rk2Wq8Zp1',
  publicKey: 'pk_test_8Jd3Nv6Lx0',
  secretKey: 'sk_test_2Yh7Bc4Mf9',
} as const;
const baseUrl = 'http://sandbox.test';

/** What the injected fetch saw of one request. */
interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Headers;
  body: string;
}

/** A fetch that records every request and answers each with the next reply (the last one repeats). */
function recordingFetch(...replies: Response[]) {
  const seen: Seen[] = [];
  const fetch = async (request: Request) => {
    const url = new URL(request.url);
    seen.push({
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: request.headers,
      body: await request.text(),
    });
    return (replies.length > 1 ? replies.shift()! : replies[0]!).clone();
  };
  return { seen, fetch };
}

const json = (status: number, body: unknown, type = 'application/json') =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': type } });
const noContent = () => new Response(null, { status: 204 });
const ok = () => json(200, { data: {} });

const bearer = (fetch: (r: Request) => Promise<Response>) =>
  createSandboxControlClient({ baseUrl, accessToken: credentials.accessToken, fetch, retry: false });
const keyPair = (fetch: (r: Request) => Promise<Response>) =>
  createSandboxControlClient({
    baseUrl,
    publicKey: credentials.publicKey,
    secretKey: credentials.secretKey,
    fetch,
    retry: false,
  });

describe('createSandboxControlClient', () => {
  it("sends a Variant A tenant's bearer token, and nothing of the key pair", async () => {
    const { seen, fetch } = recordingFetch(json(200, { data: { now: '2026-01-15T10:00:00Z', mode: 'manual' } }));
    const { data } = await bearer(fetch).GET('/_sandbox/clock');
    expect(data).toEqual({ data: { now: '2026-01-15T10:00:00Z', mode: 'manual' } });
    expect(seen[0]!.headers.get('Authorization')).toBe(`Bearer ${credentials.accessToken}`);
    expect(seen[0]!.headers.has('X-Public-Key')).toBe(false);
    expect(seen[0]!.headers.has('X-Secret-Key')).toBe(false);
  });

  it('sends both keys of a Variant B tenant, and no Authorization', async () => {
    const { seen, fetch } = recordingFetch(ok());
    await keyPair(fetch).GET('/_sandbox/clock');
    expect(seen[0]!.headers.get('X-Public-Key')).toBe(credentials.publicKey);
    expect(seen[0]!.headers.get('X-Secret-Key')).toBe(credentials.secretKey);
    expect(seen[0]!.headers.has('Authorization')).toBe(false);
  });

  // Each call as a test writes it, and what must reach the sandbox: method, path, query and JSON body.
  const calls: [string, (c: SandboxControlClient) => Promise<unknown>, Omit<Seen, 'headers'>][] = [
    ['retrieveClock', (c) => c.GET('/_sandbox/clock'), { method: 'GET', path: '/_sandbox/clock', query: {}, body: '' }],
    [
      'advanceClock',
      (c) => c.POST('/_sandbox/clock/advance', { body: { seconds: 90 } }),
      { method: 'POST', path: '/_sandbox/clock/advance', query: {}, body: '{"seconds":90}' },
    ],
    ['resetTenant', (c) => c.POST('/_sandbox/reset'), { method: 'POST', path: '/_sandbox/reset', query: {}, body: '' }],
    [
      'listEvents',
      (c) => c.GET('/_sandbox/events', { params: { query: { limit: 5, offset: 10, object_id: 'pay_8f3k2m9q4w7x' } } }),
      {
        method: 'GET',
        path: '/_sandbox/events',
        query: { limit: '5', offset: '10', object_id: 'pay_8f3k2m9q4w7x' },
        body: '',
      },
    ],
    [
      'listDeliveries',
      (c) => c.GET('/_sandbox/deliveries', { params: { query: { event_id: 'evt_2n5r8t1v4y7z', state: 'failed' } } }),
      {
        method: 'GET',
        path: '/_sandbox/deliveries',
        query: { event_id: 'evt_2n5r8t1v4y7z', state: 'failed' },
        body: '',
      },
    ],
    [
      'redeliverDelivery',
      (c) =>
        c.POST('/_sandbox/deliveries/{deliveryId}/redeliver', { params: { path: { deliveryId: 'dlv_5c8e1g4i7k0m' } } }),
      { method: 'POST', path: '/_sandbox/deliveries/dlv_5c8e1g4i7k0m/redeliver', query: {}, body: '' },
    ],
    [
      'createWebhookEndpoint',
      (c) => c.POST('/_sandbox/webhook-endpoints', { body: { url: 'http://127.0.0.1:3000/hooks', layout: 'earlier' } }),
      {
        method: 'POST',
        path: '/_sandbox/webhook-endpoints',
        query: {},
        body: '{"url":"http://127.0.0.1:3000/hooks","layout":"earlier"}',
      },
    ],
    [
      'listWebhookEndpoints',
      (c) => c.GET('/_sandbox/webhook-endpoints'),
      { method: 'GET', path: '/_sandbox/webhook-endpoints', query: {}, body: '' },
    ],
    [
      'deleteWebhookEndpoints',
      (c) => c.DELETE('/_sandbox/webhook-endpoints'),
      { method: 'DELETE', path: '/_sandbox/webhook-endpoints', query: {}, body: '' },
    ],
    [
      'deleteWebhookEndpoint',
      (c) =>
        c.DELETE('/_sandbox/webhook-endpoints/{endpointId}', { params: { path: { endpointId: 'we_9b2d4f6h8j1l' } } }),
      { method: 'DELETE', path: '/_sandbox/webhook-endpoints/we_9b2d4f6h8j1l', query: {}, body: '' },
    ],
    [
      'forcePaymentStatus',
      (c) =>
        c.POST('/_sandbox/payments/{paymentId}/status', {
          params: { path: { paymentId: 'pay_8f3k2m9q4w7x' } },
          body: { status: 'failed', reason_code: 'declined' },
        }),
      {
        method: 'POST',
        path: '/_sandbox/payments/pay_8f3k2m9q4w7x/status',
        query: {},
        body: '{"status":"failed","reason_code":"declined"}',
      },
    ],
    [
      'forcePayoutStatus',
      (c) =>
        c.POST('/_sandbox/payouts/{payoutId}/status', {
          params: { path: { payoutId: 'po_3h6j9l2n5p8r' } },
          body: { status: 'processing' },
        }),
      { method: 'POST', path: '/_sandbox/payouts/po_3h6j9l2n5p8r/status', query: {}, body: '{"status":"processing"}' },
    ],
    [
      'forceAppealStatus',
      (c) =>
        c.POST('/_sandbox/appeals/{appealId}/status', {
          params: { path: { appealId: 'apl_4k7m1p3s6u9w' } },
          body: { status: 'under_review' },
        }),
      {
        method: 'POST',
        path: '/_sandbox/appeals/apl_4k7m1p3s6u9w/status',
        query: {},
        body: '{"status":"under_review"}',
      },
    ],
    [
      'createFault',
      (c) =>
        c.POST('/_sandbox/faults', {
          body: { operation_id: 'createPayment', kind: 'rate_limit', count: 2, retry_after: 1 },
        }),
      {
        method: 'POST',
        path: '/_sandbox/faults',
        query: {},
        body: '{"operation_id":"createPayment","kind":"rate_limit","count":2,"retry_after":1}',
      },
    ],
    ['listFaults', (c) => c.GET('/_sandbox/faults'), { method: 'GET', path: '/_sandbox/faults', query: {}, body: '' }],
    [
      'createTestTenant',
      (c) => c.POST('/_sandbox/tenants'),
      { method: 'POST', path: '/_sandbox/tenants', query: {}, body: '' },
    ],
    [
      'listTestTenants',
      (c) => c.GET('/_sandbox/tenants', { params: { query: { limit: 10, offset: 20 } } }),
      { method: 'GET', path: '/_sandbox/tenants', query: { limit: '10', offset: '20' }, body: '' },
    ],
    [
      'deleteTestTenant',
      (c) => c.DELETE('/_sandbox/tenants/{tenantId}', { params: { path: { tenantId: 'ten_lzDw8RtxywOdxMKVvK7XJA' } } }),
      { method: 'DELETE', path: '/_sandbox/tenants/ten_lzDw8RtxywOdxMKVvK7XJA', query: {}, body: '' },
    ],
    [
      'deleteFaults',
      (c) => c.DELETE('/_sandbox/faults'),
      { method: 'DELETE', path: '/_sandbox/faults', query: {}, body: '' },
    ],
  ];

  it('covers every operation of the control API but the WebSocket (webhook listen --from opens that one)', () => {
    const spec = parse(
      readFileSync(new URL('../../packages/contract/generated/openapi/sandbox.yaml', import.meta.url), 'utf8'),
    );
    const operations = Object.values(spec.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(
      (item) =>
        Object.values(item).flatMap((op) =>
          op?.operationId && op.operationId !== 'connectWebhookListener' ? [op.operationId] : [],
        ),
    );
    expect(operations).toHaveLength(19);
    expect(calls.map(([id]) => id).sort()).toEqual([...operations].sort());
  });

  it.each(calls)(
    '%s: sends its method, path, query and body, with JSON declared when there is a body',
    async (_id, call, expected) => {
      const { seen, fetch } = recordingFetch(
        expected.method === 'DELETE' || _id === 'resetTenant' ? noContent() : ok(),
      );
      await call(keyPair(fetch));
      expect(seen).toHaveLength(1);
      const { headers, ...request } = seen[0]!;
      expect(request).toEqual(expected);
      if (expected.body) expect(headers.get('Content-Type')).toBe('application/json');
      expect(headers.get('Accept')).toBe('application/json, application/problem+json');
    },
  );

  it('puts the paths under a baseUrl that has a path of its own', async () => {
    const { seen, fetch } = recordingFetch(ok());
    await createSandboxControlClient({
      baseUrl: 'http://127.0.0.1:4020/proxy/',
      accessToken: credentials.accessToken,
      fetch,
    }).GET('/_sandbox/faults');
    expect(seen[0]!.path).toBe('/proxy/_sandbox/faults');
  });

  it("gives every POST and DELETE a fresh Idempotency-Key, keeps the caller's own, and sends none on GET", async () => {
    const { seen, fetch } = recordingFetch(ok());
    const control = keyPair(fetch);
    await control.POST('/_sandbox/clock/advance', { body: { seconds: 1 } });
    await control.POST('/_sandbox/clock/advance', { body: { seconds: 1 } });
    await control.DELETE('/_sandbox/faults');
    await control.POST('/_sandbox/reset', { params: { header: { 'Idempotency-Key': 'reset-before-test-7' } } });
    await control.GET('/_sandbox/clock');
    const keys = seen.map((s) => s.headers.get('Idempotency-Key'));
    expect(keys.slice(0, 3).every((k) => /^[0-9a-f-]{36}$/.test(k ?? ''))).toBe(true);
    expect(new Set(keys.slice(0, 3)).size).toBe(3);
    expect(keys.slice(3)).toEqual(['reset-before-test-7', null]);
  });

  it('retries an advance that failed with 503 with the same Idempotency-Key, so the clock moves once', async () => {
    const problem = { type: 'about:blank', title: 'Unavailable', status: 503, code: 'unavailable' };
    const advanced = {
      data: { now: '2026-01-15T10:01:00Z', mode: 'manual', advanced_by: 60, transitions: 0, delivery_attempts: 0 },
    };
    const { seen, fetch } = recordingFetch(json(503, problem, 'application/problem+json'), json(200, advanced));
    const delays: number[] = [];
    const control = createSandboxControlClient({
      baseUrl,
      accessToken: credentials.accessToken,
      fetch,
      retry: { jitter: false, sleep: async (ms) => void delays.push(ms) },
    });
    const { data } = await control.POST('/_sandbox/clock/advance', { body: { seconds: 60 } });
    expect(data).toEqual(advanced);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers.get('Idempotency-Key')).toBe(seen[0]!.headers.get('Idempotency-Key'));
    expect(seen.map((s) => s.body)).toEqual(['{"seconds":60}', '{"seconds":60}']);
    expect(delays).toHaveLength(1);
  });

  it('returns a refused transition as the problem, without throwing', async () => {
    const problem = {
      type: 'https://docs.payments.example/problems/invalid_state',
      title: 'Status does not allow the operation',
      status: 422,
      code: 'invalid_state',
    };
    const { fetch } = recordingFetch(json(422, problem, 'application/problem+json'));
    const result = await bearer(fetch).POST('/_sandbox/payments/{paymentId}/status', {
      params: { path: { paymentId: 'pay_1' } },
      body: { status: 'succeeded' },
    });
    expect(result.data).toBeUndefined();
    expect(result.error).toEqual(problem);
    expect(result.response.status).toBe(422);
  });

  it('returns a 204 without data or error', async () => {
    const { fetch } = recordingFetch(noContent());
    const result = await bearer(fetch).DELETE('/_sandbox/webhook-endpoints');
    expect(result.response.status).toBe(204);
    expect(result.error).toBeUndefined();
    expect(result.data ?? undefined).toBeUndefined();
  });

  it('keeps the credentials out of JSON.stringify and util.inspect, and names itself', () => {
    const control = keyPair(recordingFetch(ok()).fetch);
    const printed = [JSON.stringify(control), inspect(control)];
    expect(printed[1]).toBe(`SandboxControlClient { baseUrl: '${baseUrl}', credentials: [REDACTED] }`);
    expect(JSON.parse(printed[0]!)).toEqual({ variant: 'B', baseUrl, credentials: '[REDACTED]' });
    for (const text of printed) for (const secret of Object.values(credentials)) expect(text).not.toContain(secret);
  });
});

describe('createSandboxControlClient refuses', () => {
  const refusal = (options: unknown) => {
    try {
      createSandboxControlClient(options as SandboxControlClientOptions);
    } catch (error) {
      expect(error).toBeInstanceOf(ClientConfigError);
      return error as ClientConfigError;
    }
    throw new Error('no ClientConfigError');
  };

  it('options without credentials, naming both kinds', () => {
    const error = refusal({ baseUrl });
    expect(error.option).toBe('accessToken');
    expect(error.message).toContain('{ baseUrl, accessToken }');
    expect(error.message).toContain('{ baseUrl, publicKey, secretKey }');
  });

  it('both kinds of credentials at once, quoting neither', () => {
    const error = refusal({ baseUrl, ...credentials });
    expect(error.message).toContain('not both');
    for (const secret of Object.values(credentials)) expect(error.message).not.toContain(secret);
  });

  it('half a key pair', () => {
    expect(refusal({ baseUrl, publicKey: credentials.publicKey }).option).toBe('secretKey');
    expect(refusal({ baseUrl, secretKey: credentials.secretKey }).option).toBe('publicKey');
  });

  it('a token with a line break, without quoting it', () => {
    const error = refusal({ baseUrl, accessToken: `${credentials.accessToken}\n` });
    expect(error.option).toBe('accessToken');
    expect(error.message).not.toContain(credentials.accessToken);
  });

  it("a bad baseUrl, as the variants' clients do", () => {
    expect(refusal({ baseUrl: 'ftp://sandbox.test', accessToken: credentials.accessToken }).option).toBe('baseUrl');
    expect(refusal(null).option).toBe('options');
  });
});

type DataOf<Call extends (...args: never[]) => Promise<{ data?: unknown }>> = NonNullable<
  Awaited<ReturnType<Call>>['data']
>;
type ErrorOf<Call extends (...args: never[]) => Promise<{ error?: unknown }>> = NonNullable<
  Awaited<ReturnType<Call>>['error']
>;
// Note: openapi-fetch rebuilds response types as mapped types; mutual assignability is the equality that matters.
type Equivalent<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/* eslint-disable @typescript-eslint/no-unused-vars -- sample calls, read only through `typeof` */
const advance = (c: SandboxControlClient) => c.POST('/_sandbox/clock/advance', { body: { seconds: 60 } });
const createEndpoint = (c: SandboxControlClient) =>
  c.POST('/_sandbox/webhook-endpoints', { body: { url: 'http://127.0.0.1:3000/hooks' } });
const listEndpoints = (c: SandboxControlClient) => c.GET('/_sandbox/webhook-endpoints');
const events = (c: SandboxControlClient) => c.GET('/_sandbox/events');
const forcePayment = (c: SandboxControlClient) =>
  c.POST('/_sandbox/payments/{paymentId}/status', {
    params: { path: { paymentId: 'pay_1' } },
    body: { status: 'succeeded' },
  });
/* eslint-enable @typescript-eslint/no-unused-vars */

// Note: a call that must not compile sits in a function that is never called, only type-checked.
/* eslint-disable @typescript-eslint/no-unused-expressions -- those functions are expressions on purpose */
describe('control client types', () => {
  it('take either kind of credentials, never both, never half a pair', () => {
    expectTypeOf<{ baseUrl: string; accessToken: string }>().toMatchTypeOf<SandboxControlClientOptions>();
    expectTypeOf<{
      baseUrl: string;
      publicKey: string;
      secretKey: string;
    }>().toMatchTypeOf<SandboxControlClientOptions>();
    () => {
      // @ts-expect-error both kinds of credentials
      createSandboxControlClient({ baseUrl, accessToken: 't', publicKey: 'p', secretKey: 's' });
      // @ts-expect-error half a key pair
      createSandboxControlClient({ baseUrl, publicKey: 'p' });
      // @ts-expect-error no credentials
      createSandboxControlClient({ baseUrl });
    };
  });

  it("type each answer from the control API's document", () => {
    expectTypeOf<Equivalent<DataOf<typeof advance>['data'], SandboxControl.ClockAdvance>>().toEqualTypeOf<true>();
    expectTypeOf<DataOf<typeof advance>['data']['mode']>().toEqualTypeOf<'manual' | 'real'>();
    expectTypeOf<DataOf<typeof advance>['data']['delivery_attempts']>().toEqualTypeOf<number>();
    expectTypeOf<
      Equivalent<DataOf<typeof events>['data'][number], SandboxControl.StatusChange>
    >().toEqualTypeOf<true>();
    expectTypeOf<DataOf<typeof forcePayment>['data']['trigger']>().toEqualTypeOf<SandboxControl.Trigger>();
    expectTypeOf<Equivalent<ErrorOf<typeof forcePayment>, Problem | UndocumentedErrorBody>>().toEqualTypeOf<true>();
  });

  it('show a secret only on the endpoint just created', () => {
    expectTypeOf<DataOf<typeof createEndpoint>['data']>().toHaveProperty('secret');
    expectTypeOf<DataOf<typeof listEndpoints>['data'][number]>().not.toHaveProperty('secret');
    expectTypeOf<SandboxControl.WebhookEndpoint>().not.toHaveProperty('secret');
  });

  it('refuse what the document does not allow', () => {
    (c: SandboxControlClient) => {
      // @ts-expect-error seconds is a number
      void c.POST('/_sandbox/clock/advance', { body: { seconds: '60' } });
      // @ts-expect-error the body is required
      void c.POST('/_sandbox/clock/advance');
      // @ts-expect-error `minutes` is not a field
      void c.POST('/_sandbox/clock/advance', { body: { seconds: 60, minutes: 1 } });
      void c.POST('/_sandbox/payouts/{payoutId}/status', {
        params: { path: { payoutId: 'po_1' } },
        // @ts-expect-error a payout has no reason_code to choose
        body: { status: 'failed', reason_code: 'declined' },
      });
      void c.POST('/_sandbox/payments/{paymentId}/status', {
        params: { path: { paymentId: 'pay_1' } },
        // @ts-expect-error `settled` is not a payment status
        body: { status: 'settled' },
      });
      // @ts-expect-error faults name an operation of the main API
      void c.POST('/_sandbox/faults', { body: { operation_id: 'advanceClock', kind: 'timeout' } });
      // @ts-expect-error the control API has no main API paths
      void c.GET('/merchant/v1/payments');
      // @ts-expect-error endpoints are removed, not changed
      void c.PATCH('/_sandbox/webhook-endpoints/{endpointId}', { params: { path: { endpointId: 'we_1' } } });
    };
  });

  it('make the Idempotency-Key optional, as the document does', () => {
    type AdvanceParams = SandboxControl.Paths['/_sandbox/clock/advance']['post']['parameters'];
    expectTypeOf<Record<never, never> extends AdvanceParams ? true : false>().toEqualTypeOf<true>();
    expectTypeOf<NonNullable<NonNullable<AdvanceParams['header']>['Idempotency-Key']>>().toEqualTypeOf<string>();
  });
});
