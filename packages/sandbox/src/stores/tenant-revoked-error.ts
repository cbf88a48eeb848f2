// Thrown by a store's transaction that would make the row of a registry's tenant (`ten_…`) that is not live: revoked,
// expired, purged, or a test tenant whose parent was revoked. The request pipeline answers it as every other refusal of
// credentials (401), since the tenant's credentials stopped while the request was on its way.

/** The tenant's credentials stopped; nothing of it is made again. */
export class TenantRevokedError extends Error {
  override readonly name = 'TenantRevokedError';

  constructor(tenant: string) {
    super(`Tenant ${tenant} is not a live tenant of the registry, so its state is not made again.`);
  }
}

/** Whether `tenant` is a registry's id (an issued or test tenant), whose row only a live registry tenant may have. */
export const isRegistryTenant = (tenant: string): boolean => tenant.startsWith('ten_');
