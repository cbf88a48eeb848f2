// The TenantRegistry's behaviour, as one suite run against each store's registry: on memory in the fast lane
// (test/sandbox/registry.test.ts) and on PostgreSQL in the postgres project (test/postgres/registry.test.ts).
import { describe, expect, it } from 'vitest';
import type { TenantRegistry, TestTenantCredentials } from '../../packages/sandbox/src/stores/types.js';

const T0 = Date.UTC(2026, 0, 15, 10);
const HOUR = 3_600_000;

/** Runs the registry suite on registries `make` gives, a new empty one per call. */
export function registrySuite(name: string, make: () => Promise<TenantRegistry>): void {
  describe(`TenantRegistry (${name})`, () => {
    it('creates an active tenant whose access token and key pair lead to its id, each in its format', async () => {
      const registry = await make();
      const issued = await registry.create(T0);
      expect(issued.id).toMatch(/^ten_[A-Za-z0-9_-]{22}$/);
      expect(issued.accessToken).toMatch(/^sbx_at_[A-Za-z0-9_-]{43}$/);
      expect(issued.publicKey).toMatch(/^sbx_pk_[A-Za-z0-9_-]{22}$/);
      expect(issued.secretKey).toMatch(/^sbx_sk_[A-Za-z0-9_-]{43}$/);
      expect(await registry.get(issued.id)).toEqual({
        id: issued.id,
        publicKey: issued.publicKey,
        status: 'active',
        createdAt: T0,
        rotatedAt: null,
        previousExpiresAt: null,
        revokedAt: null,
        parent: null,
      });
      const self = { tenant: issued.id, merchant: issued.id };
      expect(await registry.tenantOfAccessToken(issued.accessToken, T0)).toEqual(self);
      expect(await registry.tenantOfKeyPair(issued.publicKey, issued.secretKey, T0)).toEqual(self);
    });

    it("finds no tenant for an unknown token, a wrong secret key, another tenant's secret key or a credential of another form", async () => {
      const registry = await make();
      const one = await registry.create(T0);
      const two = await registry.create(T0);
      expect(new Set([one.id, two.id, one.accessToken, two.accessToken, one.secretKey, two.secretKey]).size).toBe(6);
      const misses = [
        registry.tenantOfAccessToken(`sbx_at_${'A'.repeat(43)}`, T0),
        registry.tenantOfAccessToken(one.secretKey, T0),
        registry.tenantOfAccessToken('not-a-token', T0),
        registry.tenantOfAccessToken('', T0),
        registry.tenantOfKeyPair(one.publicKey, two.secretKey, T0),
        registry.tenantOfKeyPair(two.publicKey, one.secretKey, T0),
        registry.tenantOfKeyPair(one.publicKey, `sbx_sk_${'A'.repeat(43)}`, T0),
        registry.tenantOfKeyPair(`sbx_pk_${'A'.repeat(22)}`, one.secretKey, T0),
        registry.tenantOfKeyPair(one.publicKey, one.accessToken, T0),
        registry.tenantOfKeyPair('pk', 'sk', T0),
      ];
      expect(await Promise.all(misses)).toEqual(Array(misses.length).fill(undefined));
      expect(await registry.get('ten_AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
    });

    it('lists newest first, in pages that starting_after walks through, with has_more', async () => {
      const registry = await make();
      const ids: string[] = [];
      // Note: all at the same instant, so that the order can only come from the order of creation.
      for (let i = 0; i < 7; i++) ids.push((await registry.create(T0)).id);
      const newestFirst = [...ids].reverse();
      const all = await registry.list({ limit: 100 });
      expect(all?.tenants.map((t) => t.id)).toEqual(newestFirst);
      expect(all?.hasMore).toBe(false);
      const seen: string[] = [];
      const pages: boolean[] = [];
      let after: string | undefined;
      for (;;) {
        const page = (await registry.list({ limit: 3, startingAfter: after }))!;
        seen.push(...page.tenants.map((t) => t.id));
        pages.push(page.hasMore);
        if (!page.hasMore) break;
        after = page.tenants.at(-1)!.id;
      }
      expect(seen).toEqual(newestFirst);
      expect(pages).toEqual([true, true, false]);
      expect(await registry.list({ limit: 3, startingAfter: ids[0] })).toEqual({ tenants: [], hasMore: false });
      expect(await registry.list({ limit: 1, startingAfter: 'ten_AAAAAAAAAAAAAAAAAAAAAA' })).toBeUndefined();
      await expect(registry.list({ limit: 0 })).rejects.toThrow(RangeError);
      await expect(registry.list({ limit: 101 })).rejects.toThrow(RangeError);
    });

    it('rotates: new token and secret key, the public key kept, the replaced ones working until the overlap ends', async () => {
      const registry = await make();
      const issued = await registry.create(T0);
      const rotated = await registry.rotate(issued.id, 3600, T0 + HOUR);
      if (rotated === undefined || rotated === 'revoked') return expect.fail(`rotate answered ${String(rotated)}`);
      expect(rotated).toMatchObject({ id: issued.id, publicKey: issued.publicKey, previousExpiresAt: T0 + 2 * HOUR });
      expect(rotated.accessToken).not.toBe(issued.accessToken);
      expect(rotated.secretKey).not.toBe(issued.secretKey);
      expect(await registry.get(issued.id)).toMatchObject({
        status: 'active',
        rotatedAt: T0 + HOUR,
        previousExpiresAt: T0 + 2 * HOUR,
        revokedAt: null,
      });
      const at = async (now: number) => [
        (await registry.tenantOfAccessToken(issued.accessToken, now))?.tenant,
        (await registry.tenantOfKeyPair(issued.publicKey, issued.secretKey, now))?.tenant,
        (await registry.tenantOfAccessToken(rotated.accessToken, now))?.tenant,
        (await registry.tenantOfKeyPair(issued.publicKey, rotated.secretKey, now))?.tenant,
      ];
      expect(await at(T0 + 2 * HOUR - 1)).toEqual([issued.id, issued.id, issued.id, issued.id]);
      expect(await at(T0 + 2 * HOUR)).toEqual([undefined, undefined, issued.id, issued.id]);
    });

    it('stops the pair an earlier rotation replaced at once when it rotates again inside the overlap, and at once with overlap 0', async () => {
      const registry = await make();
      const issued = await registry.create(T0);
      const first = (await registry.rotate(issued.id, 86_400, T0)) as { accessToken: string; secretKey: string };
      const second = (await registry.rotate(issued.id, 86_400, T0 + HOUR)) as {
        accessToken: string;
        secretKey: string;
        previousExpiresAt: number;
      };
      expect(second.previousExpiresAt).toBe(T0 + HOUR + 86_400_000);
      const now = T0 + 2 * HOUR;
      expect(await registry.tenantOfAccessToken(issued.accessToken, now)).toBeUndefined();
      expect(await registry.tenantOfKeyPair(issued.publicKey, issued.secretKey, now)).toBeUndefined();
      expect((await registry.tenantOfAccessToken(first.accessToken, now))?.tenant).toBe(issued.id);
      expect((await registry.tenantOfKeyPair(issued.publicKey, first.secretKey, now))?.tenant).toBe(issued.id);
      expect((await registry.tenantOfAccessToken(second.accessToken, now))?.tenant).toBe(issued.id);

      const third = (await registry.rotate(issued.id, 0, now)) as { accessToken: string; previousExpiresAt: number };
      expect(third.previousExpiresAt).toBe(now);
      expect(await registry.tenantOfAccessToken(second.accessToken, now)).toBeUndefined();
      expect(await registry.tenantOfKeyPair(issued.publicKey, second.secretKey, now)).toBeUndefined();
      expect((await registry.tenantOfAccessToken(third.accessToken, now))?.tenant).toBe(issued.id);
    });

    it('refuses an overlap outside 0 to 604,800 seconds, and rotates no unknown tenant', async () => {
      const registry = await make();
      const issued = await registry.create(T0);
      for (const overlap of [-1, 604_801, 1.5, Number.NaN])
        await expect(registry.rotate(issued.id, overlap, T0), String(overlap)).rejects.toThrow(RangeError);
      expect((await registry.tenantOfAccessToken(issued.accessToken, T0))?.tenant).toBe(issued.id);
      expect(await registry.rotate('ten_AAAAAAAAAAAAAAAAAAAAAA', 60, T0)).toBeUndefined();
      expect(await registry.rotate(issued.id, 604_800, T0)).toMatchObject({ previousExpiresAt: T0 + 604_800_000 });
    });

    it('revokes: every credential stops at once, the previous ones inside their overlap too; again changes nothing', async () => {
      const registry = await make();
      const issued = await registry.create(T0);
      const other = await registry.create(T0);
      const rotated = (await registry.rotate(issued.id, 86_400, T0)) as { accessToken: string; secretKey: string };
      expect(await registry.revoke(issued.id, T0 + HOUR)).toBe(true);
      const now = T0 + HOUR;
      const found = await Promise.all([
        registry.tenantOfAccessToken(issued.accessToken, now),
        registry.tenantOfAccessToken(rotated.accessToken, now),
        registry.tenantOfKeyPair(issued.publicKey, issued.secretKey, now),
        registry.tenantOfKeyPair(issued.publicKey, rotated.secretKey, now),
      ]);
      expect(found).toEqual([undefined, undefined, undefined, undefined]);
      const revoked = {
        id: issued.id,
        status: 'revoked',
        revokedAt: T0 + HOUR,
        rotatedAt: T0,
        previousExpiresAt: T0 + 86_400_000,
      };
      expect(await registry.get(issued.id)).toMatchObject(revoked);
      expect(await registry.revoke(issued.id, T0 + 2 * HOUR)).toBe(true);
      expect(await registry.get(issued.id)).toMatchObject(revoked);
      expect(await registry.rotate(issued.id, 60, now)).toBe('revoked');
      expect(await registry.revoke('ten_AAAAAAAAAAAAAAAAAAAAAA', now)).toBe(false);
      // The other tenant is untouched, and the revoked one stays listed.
      expect((await registry.tenantOfAccessToken(other.accessToken, now))?.tenant).toBe(other.id);
      expect((await registry.list({ limit: 10 }))?.tenants.map((t) => [t.id, t.status])).toEqual([
        [other.id, 'active'],
        [issued.id, 'revoked'],
      ]);
    });

    describe('test tenants', () => {
      const limits = { max: 3, idleMs: HOUR };

      it("makes a test tenant whose credentials lead to it, which its parent lists and the admin API's list does not", async () => {
        const registry = await make();
        const parent = await registry.create(T0);
        const older = (await registry.createTest(parent.id, limits, T0)) as TestTenantCredentials;
        const test = (await registry.createTest(parent.id, limits, T0 + 1)) as TestTenantCredentials;
        expect(test.id).toMatch(/^ten_[A-Za-z0-9_-]{22}$/);
        expect(test.accessToken).toMatch(/^sbx_at_[A-Za-z0-9_-]{43}$/);
        expect(test.expiresAt).toBe(T0 + 1 + HOUR);
        expect((await registry.get(test.id))?.parent).toBe(parent.id);
        // Note: a test tenant's merchant is its parent, whose budget and rate limit its requests share.
        const holder = { tenant: test.id, merchant: parent.id };
        expect(await registry.tenantOfAccessToken(test.accessToken, T0 + 1)).toEqual(holder);
        expect(await registry.tenantOfKeyPair(test.publicKey, test.secretKey, T0 + 1)).toEqual(holder);
        expect(await registry.listTests(parent.id, { limit: 1, offset: 0 }, T0 + 1)).toEqual({
          tenants: [{ id: test.id, publicKey: test.publicKey, createdAt: T0 + 1, expiresAt: T0 + 1 + HOUR }],
          total: 2,
        });
        const second = await registry.listTests(parent.id, { limit: 1, offset: 1 }, T0 + 1);
        expect(second.tenants.map((t) => t.id)).toEqual([older.id]);
        expect((await registry.list({ limit: 100 }))?.tenants.map((t) => t.id)).toEqual([parent.id]);
        expect(await registry.list({ limit: 10, startingAfter: test.id })).toBeUndefined();
        // The admin API's rotate and revoke know no test tenant.
        expect(await registry.rotate(test.id, 0, T0)).toBeUndefined();
        expect(await registry.revoke(test.id, T0)).toBe(false);
        expect((await registry.tenantOfAccessToken(test.accessToken, T0 + 2))?.tenant).toBe(test.id);
      });

      it('holds each parent to its most, also for creates that race, and makes room when one is revoked', async () => {
        const registry = await make();
        const results = await Promise.all(Array.from({ length: 8 }, () => registry.createTest('a_parent', limits, T0)));
        expect(results.filter((r) => r === 'limit_reached')).toHaveLength(5);
        expect((await registry.listTests('a_parent', { limit: 100, offset: 0 }, T0)).total).toBe(3);
        // Another parent has room of its own.
        expect(await registry.createTest('b_other', limits, T0)).not.toBe('limit_reached');
        const [first] = results.filter((r): r is TestTenantCredentials => r !== 'limit_reached');
        expect(await registry.revokeTests('a_parent', T0, first!.id)).toEqual([first!.id]);
        expect(await registry.createTest('a_parent', limits, T0)).not.toBe('limit_reached');
      });

      it('moves the expiry with each use past a minute, refuses an expired one, and the sweep revokes it for purging', async () => {
        const registry = await make();
        const test = (await registry.createTest('a_parent', limits, T0)) as TestTenantCredentials;
        const expiry = async (now: number) =>
          (await registry.listTests('a_parent', { limit: 1, offset: 0 }, now)).tenants[0]?.expiresAt;
        // Within the minute of precision the expiry stays; past it a use moves it an idle time past the use.
        expect((await registry.tenantOfAccessToken(test.accessToken, T0 + 30_000))?.tenant).toBe(test.id);
        expect(await expiry(T0 + 30_000)).toBe(T0 + HOUR);
        expect((await registry.tenantOfKeyPair(test.publicKey, test.secretKey, T0 + 120_000))?.tenant).toBe(test.id);
        expect(await expiry(T0 + 120_000)).toBe(T0 + 120_000 + HOUR);
        const end = T0 + 120_000 + HOUR;
        expect(await expiry(end - 1)).toBe(end);
        expect(await registry.tenantOfAccessToken(test.accessToken, end)).toBeUndefined();
        expect(await registry.tenantOfKeyPair(test.publicKey, test.secretKey, end)).toBeUndefined();
        expect(await expiry(end)).toBeUndefined();
        expect(await registry.expireTests(end, 100)).toEqual([test.id]);
        expect((await registry.get(test.id))?.status).toBe('revoked');
        // Listed for purging until purged, so that state left by an instance that stopped is deleted by the next sweep.
        expect(await registry.expireTests(end, 100)).toEqual([test.id]);
        await registry.purge([test.id]);
        expect(await registry.get(test.id)).toBeUndefined();
        expect(await registry.expireTests(end, 100)).toEqual([]);
      });

      it("revokes a parent's test tenants, never another parent's, and purges only revoked test tenants", async () => {
        const registry = await make();
        const parent = await registry.create(T0);
        const mine = [
          (await registry.createTest(parent.id, limits, T0)) as TestTenantCredentials,
          (await registry.createTest(parent.id, limits, T0)) as TestTenantCredentials,
        ];
        const theirs = (await registry.createTest('a_other', limits, T0)) as TestTenantCredentials;
        expect(await registry.revokeTests(parent.id, T0, theirs.id)).toEqual([]);
        expect(await registry.revokeTests(parent.id, T0, 'ten_AAAAAAAAAAAAAAAAAAAAAA')).toEqual([]);
        expect((await registry.revokeTests(parent.id, T0)).sort()).toEqual(mine.map((t) => t.id).sort());
        expect(await registry.tenantOfAccessToken(mine[0]!.accessToken, T0)).toBeUndefined();
        expect((await registry.tenantOfAccessToken(theirs.accessToken, T0))?.tenant).toBe(theirs.id);
        await registry.purge([...mine.map((t) => t.id), theirs.id, parent.id]);
        expect(await registry.get(mine[0]!.id)).toBeUndefined();
        expect((await registry.get(theirs.id))?.status).toBe('active');
        expect((await registry.get(parent.id))?.status).toBe('active');
      });
    });
  });
}
