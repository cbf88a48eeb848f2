// The control API (packages/contract/openapi/sandbox/): every operation of its generated index at its method and path under /_sandbox,
// each through the request pipeline. What is written here is only which work an operationId runs.
import { Hono } from 'hono';
import { operationsOf } from '@merchant-payments/contract/internal/validation/index.js';
import { CONTROL_PREFIX, type ControlRoutes } from '../http/control.js';
import { honoPath } from '../http/app.js';
import { pipeline } from '../http/pipeline.js';
import type { SandboxRuntime } from '../runtime.js';
import { advanceClock, resetTenant, retrieveClock } from './clock.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  deleteWebhookEndpoints,
  listWebhookEndpoints,
} from './endpoints.js';
import { createFault, deleteFaults, listFaults } from './faults.js';
import { controlBinding, controlWork, type ControlOperation } from './handler.js';
import { connectWebhookListener } from './listener.js';
import { listDeliveries, listEvents, redeliverDelivery } from './logs.js';
import { forceStatus } from './statuses.js';
import { createTestTenant, deleteTestTenant, listTestTenants } from './test-tenants.js';

/** Each control operation's work by operationId; test/sandbox/routes.test.ts holds the keys to the generated index. */
export const CONTROL_OPERATIONS: Readonly<Record<string, (runtime: SandboxRuntime) => ControlOperation>> = {
  retrieveClock,
  advanceClock,
  resetTenant,
  listEvents,
  listDeliveries,
  redeliverDelivery,
  createWebhookEndpoint,
  listWebhookEndpoints,
  deleteWebhookEndpoints,
  deleteWebhookEndpoint,
  connectWebhookListener,
  forcePaymentStatus: (runtime) => forceStatus(runtime, 'payment'),
  forcePayoutStatus: (runtime) => forceStatus(runtime, 'payout'),
  forceAppealStatus: (runtime) => forceStatus(runtime, 'appeal'),
  createFault,
  listFaults,
  deleteFaults,
  createTestTenant,
  listTestTenants,
  deleteTestTenant,
};

/** The control API's routes, relative to CONTROL_PREFIX: the default of createSandbox's `control` option. */
export const controlRoutes: ControlRoutes = (runtime) => {
  const app = new Hono();
  const operations = new Map(Object.entries(CONTROL_OPERATIONS).map(([id, make]) => [id, make(runtime)]));
  const binding = controlBinding(runtime, new Map([...operations].map(([id, op]) => [id, op.refine])));
  for (const route of operationsOf('sandbox')) {
    const op = operations.get(route.operationId);
    if (!op) throw new Error(`The control API has no work for ${route.operationId}`);
    const handle = pipeline(binding, route, controlWork(op), runtime);
    app.on(route.method, honoPath(route.path.slice(CONTROL_PREFIX.length)), handle);
  }
  return app;
};
