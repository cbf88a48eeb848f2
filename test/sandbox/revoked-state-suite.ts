// A store never makes the state of a registry's tenant (`ten_…`) that is not live, whatever asks for it (a request, a
// listener's renewal, the sweep): one suite run against each store, on memory in the fast lane
// (test/sandbox/revoked-state.test.ts) and on PostgreSQL in the postgres project (test/postgres/revoked-state.test.ts).
import { describe, expect, it } from 'vitest';
import { TenantRevokedError } from '../../packages/sandbox/src/stores/tenant-revoked-error.js';
import type { TenantStore, TestTenantCredentials } from '../../packages/sandbox/src/stores/types.js';

const HOUR = 3_600_000;
const count = (store: TenantStore, tenant: string) => store.transaction(tenant, (state) => state.payments.count());

/** Runs the suite on stores `make` gives, a new empty one per call, each with a registry. */
export function revokedStateSuite(name: string, make: () => Promise<TenantStore>): void {
  describe(`a revoked tenant's state (${name})`, () => {
    it('is made for a live tenant, and never again once it is revoked and reset', async () => {
      const store = await make();
      const registry = store.registry!;
      const tenant = await registry.create(Date.now());
      expect(await count(store, tenant.id)).toBe(0);
      expect(await store.tenantCount!()).toBe(1);
      expect(await registry.revoke(tenant.id, Date.now())).toBe(true);
      await store.reset(tenant.id);
      await expect(count(store, tenant.id)).rejects.toThrow(TenantRevokedError);
      expect(await store.tenantCount!()).toBe(0);
    });

    it("is never made for a registry's id nobody issued, and always for an open-mode tenant", async () => {
      const store = await make();
      await expect(count(store, 'ten_AAAAAAAAAAAAAAAAAAAAAA')).rejects.toThrow(TenantRevokedError);
      expect(await count(store, 'a_open-mode-tenant')).toBe(0);
      expect(await store.tenantCount!()).toBe(1);
    });

    it('is never made for a test tenant whose parent is revoked or that expired; no test tenant is made under a revoked parent', async () => {
      const store = await make();
      const registry = store.registry!;
      const parent = await registry.create(Date.now());
      const limits = { max: 5, idleMs: HOUR };
      const test = (await registry.createTest(parent.id, limits, Date.now())) as TestTenantCredentials;
      const expired = (await registry.createTest(parent.id, limits, Date.now() - 2 * HOUR)) as TestTenantCredentials;
      await expect(count(store, expired.id)).rejects.toThrow(TenantRevokedError);
      expect(await registry.revoke(parent.id, Date.now())).toBe(true);
      // Note: before the sandbox revokes the test tenants (runtime.reset), the look-up and the store refuse them already.
      expect(await registry.tenantOfAccessToken(test.accessToken, Date.now())).toBeUndefined();
      expect(await registry.tenantOfKeyPair(test.publicKey, test.secretKey, Date.now())).toBeUndefined();
      await expect(count(store, test.id)).rejects.toThrow(TenantRevokedError);
      expect(await registry.createTest(parent.id, limits, Date.now())).toBe('revoked');
      expect(await store.tenantCount!()).toBe(0);
    });
  });
}
