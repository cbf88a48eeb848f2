// Where the kit runs on a sandbox (--sandbox): in a test tenant of its own when the credentials may make one, so that
// nothing the tenant already holds (objects, endpoints, a moved clock) meets the run, and the run leaves nothing
// behind. Otherwise in the tenant the credentials name, where the checks judge only the objects the kit made.
import type { SandboxControlClient } from '@merchant-payments/contract/internal/sandbox-control/client.js';
import type { Credentials } from './types.js';

/** A test tenant the run made: its id, its credentials in the run's variant, and how to delete it. */
export interface TestTenancy {
  id: string;
  credentials: Credentials;
  /** Deletes the test tenant and everything the run made in it; never rejects. */
  remove(): Promise<void>;
}

/**
 * A new test tenant of the credentials' tenant, or why there is none: a sandbox without the route (an older one, 404),
 * a test tenant's credentials (403), a tenant at its cap (422), or a failed request.
 */
export async function openTestTenancy(
  parent: SandboxControlClient,
  keyPair: boolean,
): Promise<TestTenancy | { reason: string }> {
  let answer;
  try {
    answer = await parent.POST('/_sandbox/tenants');
  } catch (error) {
    return { reason: `POST /_sandbox/tenants failed: ${(error as Error).message}` };
  }
  const { data, error, response } = answer;
  if (!data) {
    const detail = error && 'detail' in error && typeof error.detail === 'string' ? `: ${error.detail}` : '';
    return { reason: `POST /_sandbox/tenants answered ${response.status}${detail}` };
  }
  const made = data.data;
  return {
    id: made.id,
    credentials: keyPair
      ? { publicKey: made.public_key, secretKey: made.secret_key }
      : { accessToken: made.access_token },
    async remove() {
      await parent
        .DELETE('/_sandbox/tenants/{tenantId}', { params: { path: { tenantId: made.id } } })
        .catch(() => undefined);
    },
  };
}
