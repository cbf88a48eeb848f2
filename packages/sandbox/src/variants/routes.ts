// The variants' operations: every operation of each variant's generated index at its method and path, each through
// the request pipeline with its variant's binding; what is written here is only which work an operationId runs.
import { Hono } from 'hono';
import { operationsOf } from '@merchant-payments/contract/internal/validation/index.js';
import { honoPath } from '../http/app.js';
import { pipeline } from '../http/pipeline.js';
import type { SandboxRuntime } from '../runtime.js';
import { merchantWork, variantBinding } from './merchant-api.js';
import type { VariantAdapter } from './operation.js';

/** The routes of `variants`, at the contract's own paths. */
export function variantRoutes(runtime: SandboxRuntime, variants: readonly VariantAdapter[]): Hono {
  const app = new Hono();
  for (const variant of variants) {
    const binding = variantBinding(variant, runtime);
    for (const route of operationsOf(variant.index)) {
      const work = merchantWork(variant, route.operationId, runtime);
      if (!work) throw new Error(`Variant ${variant.name} has no work for ${route.operationId}`);
      app.on(route.method, honoPath(route.path), pipeline(binding, route, work, runtime));
    }
  }
  return app;
}
