// The control API (openapi/sandbox/): every operation of its document at its path under /_sandbox, each through
// controlHandler. This file only routes; each operation's work is in the file named beside it.
import { Hono } from 'hono';
import type { ControlRoutes } from '../http/control.js';
import type { SandboxRuntime } from '../runtime.js';
import { advanceClock, resetTenant, retrieveClock } from './clock.js';
import { createWebhookEndpoint, deleteWebhookEndpoint, deleteWebhookEndpoints, listWebhookEndpoints } from './endpoints.js';
import { createFault, deleteFaults, listFaults } from './faults.js';
import { controlHandler, type ControlOperation } from './handler.js';
import { listDeliveries, listEvents, redeliverDelivery } from './logs.js';
import { forceStatus } from './statuses.js';

type Method = 'GET' | 'POST' | 'DELETE';

/** Each operation's method and path relative to /_sandbox (hono's `:name` for the document's `{name}`). */
const TABLE: [Method, string, (runtime: SandboxRuntime) => ControlOperation][] = [
  ['GET', '/clock', retrieveClock],
  ['POST', '/clock/advance', advanceClock],
  ['POST', '/reset', resetTenant],
  ['GET', '/events', listEvents],
  ['GET', '/deliveries', listDeliveries],
  ['POST', '/deliveries/:deliveryId/redeliver', redeliverDelivery],
  ['POST', '/webhook-endpoints', createWebhookEndpoint],
  ['GET', '/webhook-endpoints', listWebhookEndpoints],
  ['DELETE', '/webhook-endpoints', deleteWebhookEndpoints],
  ['DELETE', '/webhook-endpoints/:endpointId', deleteWebhookEndpoint],
  ['POST', '/payments/:paymentId/status', (runtime) => forceStatus(runtime, 'payment')],
  ['POST', '/payouts/:payoutId/status', (runtime) => forceStatus(runtime, 'payout')],
  ['POST', '/appeals/:appealId/status', (runtime) => forceStatus(runtime, 'appeal')],
  ['POST', '/faults', createFault],
  ['GET', '/faults', listFaults],
  ['DELETE', '/faults', deleteFaults],
];

/** The control API's routes, the default of createSandbox's `control` option. */
export const controlRoutes: ControlRoutes = (runtime) => {
  const app = new Hono();
  for (const [method, path, operation] of TABLE) app.on(method, path, controlHandler(runtime, operation(runtime)));
  return app;
};

