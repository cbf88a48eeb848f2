// Input PostgreSQL would refuse never reaches a store: a NUL byte or bytes that are not UTF-8 in a path id, and an
// offset past the contract's range, answer the contract's 404 or 422 on every object route of both variants and of the
// control API. Runs on both stores (vitest.config.ts, `bothStores`); on postgres such a request used to answer 500.
import { describe, expect, it } from 'vitest';
import { operationsOf, type Api } from '../../packages/contract/src/validation/index.js';
import { openTestSandbox, ORIGIN } from './fixtures.js';

const CREDENTIALS: Record<Api, Record<string, string>> = {
  a: { authorization: 'Bearer token-bad-input' },
  b: { 'x-public-key': 'pk_bad_input', 'x-secret-key': 'sk_bad_input' },
  sandbox: { authorization: 'Bearer token-bad-input' },
  admin: {},
};

/** Every operation of an API whose path names an object. */
const objectRoutes = (api: Api) =>
  operationsOf(api)
    .filter((op) => op.parameters.some((p) => p.in === 'path'))
    .map((op) => ({ api, ...op }));
const ROUTES = (['a', 'b', 'sandbox'] as const).flatMap(objectRoutes);

/** Ids PostgreSQL refuses in a text value: a NUL byte, and bytes that are not UTF-8. */
const BAD_IDS = ['pay_%00x', '%00', 'pay_%C3%28', 'pay_%FF'];

describe('bad input', () => {
  it('covers object routes of both variants and of the control API', () => {
    expect(new Set(ROUTES.map((r) => r.api))).toEqual(new Set(['a', 'b', 'sandbox']));
    expect(ROUTES.length).toBeGreaterThanOrEqual(20);
  });

  it('answers a path id PostgreSQL would refuse with 404 or 422, as the operation declares', async () => {
    const sandbox = await openTestSandbox();
    const answered: string[] = [];
    for (const route of ROUTES) {
      for (const id of BAD_IDS) {
        const path = route.path.replace(/\{[^}]+\}/, id);
        const response = await sandbox.fetch(
          new Request(`${ORIGIN}${path}`, {
            method: route.method.toUpperCase(),
            headers: { ...CREDENTIALS[route.api], 'content-type': 'application/json', 'idempotency-key': 'key-bad-1' },
            ...(route.requestBody ? { body: '{}' } : {}),
          }),
        );
        const body = (await response.json()) as { code?: string; status?: number };
        const where = `${route.api} ${route.operationId} ${path}`;
        expect([404, 422], where).toContain(response.status);
        expect(Object.keys(route.responses), where).toContain(String(response.status));
        expect(body.status, where).toBe(response.status);
        expect(body.code, where).toMatch(/^(validation_failed|not_found)$/);
        answered.push(`${where} ${response.status}`);
      }
    }
    expect(answered).toHaveLength(ROUTES.length * BAD_IDS.length);
  });

  for (const [prefix, headers] of [
    ['/payments', CREDENTIALS.a],
    ['/merchant/v1/payments', CREDENTIALS.b],
    ['/_sandbox/events', CREDENTIALS.sandbox],
  ] as const) {
    it(`answers ${prefix} with an offset past the contract's range with 422 at /offset`, async () => {
      const sandbox = await openTestSandbox();
      for (const [offset, says] of [
        ['9223372036854775807', 'must be at most 2147483647'],
        ['1e308', 'must be an integer'],
        ['-1', 'must be at least 0'],
      ] as const) {
        const response = await sandbox.fetch(new Request(`${ORIGIN}${prefix}?offset=${offset}`, { headers }));
        const body = (await response.json()) as { code: string; errors: { pointer: string; detail: string }[] };
        expect(response.status, offset).toBe(422);
        expect(body.code).toBe('validation_failed');
        expect(body.errors).toEqual([{ pointer: '/offset', detail: expect.stringContaining(says) }]);
      }
    });
  }
});
