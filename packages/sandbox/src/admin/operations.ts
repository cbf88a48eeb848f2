// The admin API's operations: the store's registry of issued tenants (create, list, retrieve, rotate, revoke), and the
// settings every tenant gets. Times are the wall clock's (the sandbox's `now`); a tenant's own clock is part of its
// sandbox state.
import { iso } from '../core/index.js';
import type { Outcome } from '../http/pipeline.js';
import { httpProblem } from '../http/problem.js';
import type { SandboxRuntime } from '../runtime.js';
import { DEFAULT_OVERLAP_SECONDS } from '../stores/issued-credentials.js';
import type { IssuedTenant, TenantRegistry } from '../stores/types.js';
import type { AdminOperation } from './handler.js';

/** A tenant as the admin document's Tenant schema shows it: never a secret. */
export function tenantView(tenant: IssuedTenant) {
  const time = (ms: number | null) => (ms === null ? null : iso(ms));
  return {
    id: tenant.id,
    public_key: tenant.publicKey,
    status: tenant.status,
    created_at: iso(tenant.createdAt),
    rotated_at: time(tenant.rotatedAt),
    previous_credentials_expire_at: time(tenant.previousExpiresAt),
    revoked_at: time(tenant.revokedAt),
  };
}

const notFound = (id: string): Outcome => ({ problem: httpProblem('not_found', `No tenant has the id ${id}.`) });

/** The registry, which createSandbox made sure the store has before it mounted the admin API. */
function registryOf(runtime: SandboxRuntime): TenantRegistry {
  if (!runtime.registry) throw new TypeError("The admin API needs the store's registry of issued tenants.");
  return runtime.registry;
}

/** Each admin operation's work, by operationId; test/sandbox/admin-api.test.ts holds the keys to the generated index. */
export const ADMIN_OPERATIONS: Readonly<Record<string, (runtime: SandboxRuntime) => AdminOperation>> = {
  /** POST /_admin/tenants: a new active tenant, its access token and secret key shown this once. */
  createTenant: (runtime) => ({
    operationId: 'createTenant',
    async run() {
      const issued = await registryOf(runtime).create(runtime.wallNow());
      return {
        status: 201,
        body: {
          data: {
            id: issued.id,
            access_token: issued.accessToken,
            public_key: issued.publicKey,
            secret_key: issued.secretKey,
          },
        },
      };
    },
  }),

  /** GET /_admin/settings: what every tenant gets, for the operator to send a merchant; never a secret. */
  retrieveSettings: (runtime) => ({
    operationId: 'retrieveSettings',
    async run() {
      return {
        status: 200,
        body: {
          data: {
            rate_limit_per_second: runtime.limits.ratePerSecond ?? null,
            max_objects: runtime.quotas.objects,
            max_webhook_endpoints: runtime.quotas.webhookEndpoints,
            event_retention: runtime.quotas.events,
            test_tenants: { max: runtime.testTenants.max, idle_seconds: runtime.testTenants.idleMs / 1000 },
            webhook_endpoints: {
              public_addresses_only: runtime.egress.mode === 'issued',
              also_allowed: [...runtime.limits.allowWebhookHosts],
            },
            merchant_budget: {
              concurrency: runtime.budget.settings.concurrency,
              queue_ms: runtime.budget.settings.queueMs,
              queue_length: runtime.budget.settings.queueLength,
            },
            statement_timeout_ms: runtime.limits.statementTimeoutMs ?? null,
            lock_timeout_ms: runtime.limits.lockTimeoutMs ?? null,
          },
        },
      };
    },
  }),

  /** GET /_admin/tenants: newest first; an unknown `starting_after` is 404. */
  listTenants: (runtime) => ({
    operationId: 'listTenants',
    async run({ query }) {
      const startingAfter = query.starting_after as string | undefined;
      const page = await registryOf(runtime).list({ limit: query.limit as number, startingAfter });
      if (!page) return notFound(startingAfter!);
      return { status: 200, body: { data: page.tenants.map(tenantView), has_more: page.hasMore } };
    },
  }),

  /** GET /_admin/tenants/{tenantId}. */
  retrieveTenant: (runtime) => ({
    operationId: 'retrieveTenant',
    async run({ params }) {
      const tenant = await registryOf(runtime).get(params.tenantId!);
      return tenant ? { status: 200, body: { data: tenantView(tenant) } } : notFound(params.tenantId!);
    },
  }),

  /** POST /_admin/tenants/{tenantId}/rotate: a new access token and secret key; the replaced ones work for the overlap. */
  rotateTenantCredentials: (runtime) => ({
    operationId: 'rotateTenantCredentials',
    async run({ params, body }) {
      const id = params.tenantId!;
      const overlap = (body as { overlap_seconds?: number } | undefined)?.overlap_seconds ?? DEFAULT_OVERLAP_SECONDS;
      const rotated = await registryOf(runtime).rotate(id, overlap, runtime.wallNow());
      if (rotated === undefined) return notFound(id);
      if (rotated === 'revoked')
        return {
          problem: {
            status: 409,
            code: 'tenant_revoked',
            title: 'Tenant revoked',
            detail: `Tenant ${id} was revoked; create a new tenant instead.`,
          },
        };
      const data = {
        id,
        access_token: rotated.accessToken,
        public_key: rotated.publicKey,
        secret_key: rotated.secretKey,
        previous_credentials_expire_at: iso(rotated.previousExpiresAt),
      };
      return { status: 200, body: { data } };
    },
  }),

  /**
   * DELETE /_admin/tenants/{tenantId}: every credential stops at once (the registry is read on every request, by every
   * instance), then the tenant's sandbox state and faults are deleted; revoking again answers 204 again.
   */
  revokeTenant: (runtime) => ({
    operationId: 'revokeTenant',
    async run({ params }) {
      const id = params.tenantId!;
      if (!(await registryOf(runtime).revoke(id, runtime.wallNow()))) return notFound(id);
      // Note: also on a second revoke, which so deletes whatever a request already past authentication left behind.
      await runtime.reset(id);
      return { status: 204 };
    },
  }),
};
