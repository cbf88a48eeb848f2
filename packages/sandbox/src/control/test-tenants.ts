// A tenant's test tenants (createTestTenant, listTestTenants, deleteTestTenant): tenants of the registry that name
// their parent, so that a merchant with one issued tenant can give each test file or CI job a tenant of its own. A test
// tenant is a tenant like any other everywhere else: the same quotas, egress rule and isolation.
import { iso } from '../core/index.js';
import type { SandboxRuntime } from '../runtime.js';
import { TenantRevokedError } from '../stores/tenant-revoked-error.js';
import type { TenantRegistry } from '../stores/types.js';
import type { ControlOperation } from './handler.js';
import { dataReply, noContent, pageReply, problemReply, type Reply } from './reply.js';

/**
 * Why `tenant` may not make test tenants, or undefined when it may. Only a test tenant's own id is in the registry with
 * a parent, so an open-mode tenant costs one look-up that finds nothing.
 */
async function refusal(registry: TenantRegistry | undefined, tenant: string): Promise<Reply | undefined> {
  if (!registry)
    return problemReply(
      'forbidden',
      "This sandbox's store keeps no registry of tenants, so it can't make test tenants.",
    );
  const record = await registry.get(tenant);
  if (record && record.parent !== null)
    return problemReply(
      'forbidden',
      "These credentials are a test tenant's, and a test tenant can't make test tenants; use its parent's credentials.",
    );
  return undefined;
}

/** POST /_sandbox/tenants: a new test tenant, its access token and secret key shown this once. */
export const createTestTenant = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'createTestTenant',
  async run({ tenant }) {
    const refused = await refusal(runtime.registry, tenant);
    if (refused) return refused;
    const { max, idleMs } = runtime.testTenants;
    const made = await runtime.registry!.createTest(tenant, runtime.testTenants, runtime.wallNow());
    // Note: the parent was revoked after its credentials were looked up; answered as any refused credential is.
    if (made === 'revoked') throw new TenantRevokedError(tenant);
    if (made === 'limit_reached')
      return problemReply(
        'limit_reached',
        `This tenant already has ${max} test tenants; delete one first (DELETE /_sandbox/tenants/{tenantId}), or let an unused one expire after ${idleMs / 1000} seconds.`,
      );
    return dataReply(
      {
        id: made.id,
        access_token: made.accessToken,
        public_key: made.publicKey,
        secret_key: made.secretKey,
        expires_at: iso(made.expiresAt),
      },
      201,
    );
  },
});

/** GET /_sandbox/tenants: the caller's test tenants, newest first; a test tenant's list is empty. */
export const listTestTenants = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'listTestTenants',
  async run({ tenant, query }) {
    const limit = query.limit as number;
    const offset = query.offset as number;
    const page = (await runtime.registry?.listTests(tenant, { limit, offset }, runtime.wallNow())) ?? {
      tenants: [],
      total: 0,
    };
    const data = page.tenants.map((test) => ({
      id: test.id,
      public_key: test.publicKey,
      created_at: iso(test.createdAt),
      expires_at: iso(test.expiresAt),
    }));
    return pageReply(data, { total: page.total, limit, offset });
  },
});

/**
 * DELETE /_sandbox/tenants/{tenantId}: its credentials stop, then its state is deleted. The 404 reads the same for
 * another tenant's test tenant as for an id nobody has.
 */
export const deleteTestTenant = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'deleteTestTenant',
  // Note: a retry with the same key answers the first 204 again, where without one it would get 404.
  idempotency: 'record',
  async run({ tenant, params }) {
    const id = params.tenantId!;
    const revoked = (await runtime.registry?.revokeTests(tenant, runtime.wallNow(), id)) ?? [];
    if (revoked.length === 0) return problemReply('not_found', `No test tenant of these credentials has the id ${id}.`);
    await runtime.deleteTestTenants(revoked);
    return noContent();
  },
});
