// Listener endpoints (the control API's Connect Webhook Listener): endpoints that live while a client holds a WebSocket
// to some instance, on a lease of wall-clock time that the holder renews, so that an instance that dies leaves an
// endpoint that expires rather than one that collects attempts for ever.
import { addEndpoint, removeEndpoint } from './outbox.js';
import type { TenantHead } from './tenant.js';
import type { WebhookEndpoint } from './types.js';

/** How long a listener outlives its last renewal (wall ms): the time a dropped client has to reconnect and resume. */
export const LISTENER_LEASE_MS = 60_000;

/**
 * Removes the listeners whose lease ran out at `wallNow`; their ids. Their pending deliveries end as for a deleted
 * endpoint (fireAttempt, prepareAttempt).
 */
export function dropExpiredListeners(tenant: TenantHead, wallNow: number): string[] {
  const expired = tenant.endpoints.filter((e) => e.listener !== undefined && e.listener.until <= wallNow);
  for (const endpoint of expired) removeEndpoint(tenant, endpoint.id);
  return expired.map((e) => e.id);
}

/** The listener `id` with its lease moved to `until`; undefined when it is gone (expired, or deleted). */
export function renewListener(tenant: TenantHead, id: string, until: number): WebhookEndpoint | undefined {
  const endpoint = tenant.endpoints.find((e) => e.id === id && e.listener !== undefined);
  if (!endpoint) return undefined;
  endpoint.listener = { until };
  return structuredClone(endpoint);
}

/**
 * The listener a client connects to: `resume`'s, its lease renewed, when it is still there; otherwise a new one with
 * `secret`, unless the tenant holds `quota` endpoints already (undefined then).
 */
export function connectListener(
  tenant: TenantHead,
  input: { url: string; secret: string; resume: string | undefined; quota: number },
  now: number,
  wallNow: number,
): { endpoint: WebhookEndpoint; resumed: boolean } | undefined {
  dropExpiredListeners(tenant, wallNow);
  const until = wallNow + LISTENER_LEASE_MS;
  const resumed = input.resume === undefined ? undefined : renewListener(tenant, input.resume, until);
  if (resumed) {
    // Note: the URL the client forwards to may have changed between two runs of the command; it is only shown.
    tenant.endpoints.find((e) => e.id === resumed.id)!.url = input.url;
    return { endpoint: { ...resumed, url: input.url }, resumed: true };
  }
  if (tenant.endpoints.length >= input.quota) return undefined;
  const endpoint = addEndpoint(
    tenant,
    { url: input.url, secret: input.secret, layout: 'later', listener: { until } },
    now,
  );
  return { endpoint, resumed: false };
}
