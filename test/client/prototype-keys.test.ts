// Answers whose JSON has a "__proto__" key, or a "constructor" holding a "prototype": whichever way openapi-fetch parses
// the body (json() with a Content-Length, JSON.parse of the text without one, JSON.parse of an error body), no value the
// client hands back keeps such a key to hand to Object.assign.
import { describe, expect, it } from 'vitest';
import { ids } from './fixtures.js';
import { testClientB } from './harness.js';

// Note: JSON text, because a "__proto__" key in an object literal sets the prototype instead of creating a key.
const poisoned = `{"data":{"id":"${ids.payment}","status":"pending","__proto__":{"isAdmin":true},"metadata":{"constructor":{"prototype":{"isAdmin":true}}}}}`;
const problem = `{"type":"about:blank","title":"Not found","status":404,"code":"not_found","detail":"No such payment.","__proto__":{"isAdmin":true}}`;

/** A client whose fetch answers every call with `body` and `status`, with or without a Content-Length. */
function clientAnswering(body: string, status: number, contentLength: boolean) {
  const headers: Record<string, string> = {
    'content-type': status < 400 ? 'application/json' : 'application/problem+json',
  };
  if (contentLength) headers['content-length'] = String(Buffer.byteLength(body));
  return testClientB('http://127.0.0.1:9', {
    retry: false,
    fetch: async () => new Response(body, { status, headers }),
  });
}

/** True when `value` or any object inside it has an own key that can reach a prototype. */
function reachesPrototype(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Object.hasOwn(value, '__proto__')) return true;
  const ctor = (value as { constructor?: unknown }).constructor;
  if (
    Object.hasOwn(value, 'constructor') &&
    ctor !== null &&
    typeof ctor === 'object' &&
    Object.hasOwn(ctor, 'prototype')
  )
    return true;
  return Object.values(value).some(reachesPrototype);
}

describe('prototype keys in answers', () => {
  it.each([
    ['with a Content-Length', true],
    ['without a Content-Length', false],
  ])(
    'removes them from a 2xx body %s, so an Object.assign copy keeps Object.prototype',
    async (_name, contentLength) => {
      const { data } = await clientAnswering(poisoned, 200, contentLength).GET('/merchant/v1/payments/{paymentId}', {
        params: { path: { paymentId: ids.payment } },
      });
      expect(data?.data.id).toBe(ids.payment);
      expect(reachesPrototype(data)).toBe(false);
      const copy = Object.assign({}, data?.data) as { isAdmin?: unknown };
      expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      expect(copy.isAdmin).toBeUndefined();
    },
  );

  it.each([
    ['with a Content-Length', true],
    ['without a Content-Length', false],
  ])('removes them from an error body %s', async (_name, contentLength) => {
    const { error } = await clientAnswering(problem, 404, contentLength).GET('/merchant/v1/payments/{paymentId}', {
      params: { path: { paymentId: ids.payment } },
    });
    expect(error).toMatchObject({ code: 'not_found', status: 404 });
    expect(reachesPrototype(error)).toBe(false);
    expect((Object.assign({}, error) as { isAdmin?: unknown }).isAdmin).toBeUndefined();
  });
});
