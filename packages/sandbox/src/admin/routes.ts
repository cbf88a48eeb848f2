// The admin API (packages/contract/openapi/admin/): every operation of its generated index at its method and path under /_admin, each
// through the request pipeline. Mounted only when the sandbox has an admin token; otherwise /_admin is the ordinary 404.
import { Hono } from 'hono';
import { operationsOf } from '@merchant-payments/contract/internal/validation/index.js';
import { honoPath } from '../http/app.js';
import { pipeline } from '../http/pipeline.js';
import type { SandboxRuntime } from '../runtime.js';
import { adminBinding, adminWork } from './handler.js';
import { ADMIN_OPERATIONS } from './operations.js';

/** The prefix every admin route is under. */
export const ADMIN_PREFIX = '/_admin';

/** The admin API's routes, relative to ADMIN_PREFIX, taking `adminToken` (the operator's SANDBOX_ADMIN_TOKEN). */
export function adminRoutes(runtime: SandboxRuntime, adminToken: string): Hono {
  const app = new Hono();
  const binding = adminBinding(runtime, adminToken);
  for (const route of operationsOf('admin')) {
    const make = ADMIN_OPERATIONS[route.operationId];
    if (!make) throw new Error(`The admin API has no work for ${route.operationId}`);
    const handle = pipeline(binding, route, adminWork(make(runtime)), runtime);
    app.on(route.method, honoPath(route.path.slice(ADMIN_PREFIX.length)), handle);
  }
  return app;
}
