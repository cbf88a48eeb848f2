// The tenant's webhook endpoints: create (a generated secret returned once, its host held to the egress rule), list
// (never a secret), delete one or all.
import { addEndpoint, dropExpiredListeners, removeEndpoint } from '../core/index.js';
import { generateWebhookSecret } from '../options.js';
import type { SandboxRuntime } from '../runtime.js';
import { webhookHostProblem, webhookUrlProblem } from './checks.js';
import type { ControlOperation } from './handler.js';
import { dataReply, noContent, problemReply } from './reply.js';
import { endpointView } from './views.js';

/** The layouts an endpoint may take (WebhookLayout). */
export const WEBHOOK_LAYOUTS = ['later', 'earlier'] as const;

/** POST /_sandbox/webhook-endpoints: 201; `secret` is in the answer only when the sandbox generated it. */
export const createWebhookEndpoint = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'createWebhookEndpoint',
  refine(body) {
    const detail = webhookUrlProblem(body.url);
    return detail ? [{ pointer: '/url', detail }] : [];
  },
  idempotency: 'record',
  async run({ tenant, body }) {
    const input = body as { url: string; secret?: string; layout?: (typeof WEBHOOK_LAYOUTS)[number] };
    // Note: before the transaction, as resolving the host may take a while; the delivery checks it again.
    const refused = await webhookHostProblem(runtime.egress, input.url);
    if (refused) return problemReply('webhook_host_forbidden', refused);
    const generated = input.secret === undefined ? generateWebhookSecret() : undefined;
    return runtime.store.transaction(tenant, (state) => {
      dropExpiredListeners(state, runtime.wallNow());
      const most = runtime.quotas.webhookEndpoints;
      if (state.endpoints.length >= most)
        return problemReply(
          'limit_reached',
          `This tenant already has ${most} webhook endpoints, its quota of webhook endpoints (${most}); delete one first.`,
        );
      const endpoint = addEndpoint(
        state,
        { url: input.url, secret: input.secret ?? generated, layout: input.layout ?? 'later' },
        runtime.now(state),
      );
      return dataReply({ ...endpointView(endpoint), ...(generated === undefined ? {} : { secret: generated }) }, 201);
    });
  },
});

/** GET /_sandbox/webhook-endpoints: newest first, without secrets. */
export const listWebhookEndpoints = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'listWebhookEndpoints',
  run: ({ tenant }) =>
    runtime.store.transaction(tenant, (state) => {
      // Note: a listener whose lease ran out (its instance died) is gone, though no delivery met it yet.
      dropExpiredListeners(state, runtime.wallNow());
      return dataReply(state.endpoints.map(endpointView).reverse());
    }),
});

/** DELETE /_sandbox/webhook-endpoints/{endpointId}. */
export const deleteWebhookEndpoint = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'deleteWebhookEndpoint',
  idempotency: 'record',
  async run({ tenant, params }) {
    const removed = await runtime.store.transaction(tenant, (state) => removeEndpoint(state, params.endpointId!));
    if (!removed)
      return problemReply('not_found', `No webhook endpoint with id ${params.endpointId} exists for this tenant.`);
    return noContent();
  },
});

/** DELETE /_sandbox/webhook-endpoints: every endpoint, the --webhook-url ones included. */
export const deleteWebhookEndpoints = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'deleteWebhookEndpoints',
  idempotency: 'record',
  async run({ tenant }) {
    await runtime.store.transaction(tenant, (state) => {
      for (const endpoint of [...state.endpoints]) removeEndpoint(state, endpoint.id);
    });
    return noContent();
  },
});
