// The sandbox as one hono app: each variant's operations at the paths and methods of its generated operation index,
// the control API under /_sandbox, and a problem for anything else. It only routes; what a request goes through is
// pipeline.ts, and what it does is the core's.
import { Hono } from 'hono';
import { operationsOf } from '../../validation/index.js';
import type { SandboxRuntime } from '../runtime.js';
import { merchantWork, variantBinding } from '../variants/merchant-api.js';
import type { VariantAdapter } from '../variants/operation.js';
import { CONTROL_PREFIX, type ControlRoutes } from './control.js';
import { pipeline } from './pipeline.js';
import { noteOf } from './request-note.js';
import { httpProblem, jsonResponse, occurrence, problemBody } from './problem.js';

/** `/payments/{id}` (the spec) as `/payments/:id` (hono). */
export const honoPath = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

/** The app that serves `variants` and, when given, the control routes. */
export function createApp(runtime: SandboxRuntime, variants: readonly VariantAdapter[], control?: ControlRoutes): Hono {
  const app = new Hono();
  for (const variant of variants) {
    const binding = variantBinding(variant, runtime);
    for (const route of operationsOf(variant.index)) {
      const work = merchantWork(variant, route.operationId, runtime);
      if (!work) throw new Error(`Variant ${variant.name} has no work for ${route.operationId}`);
      const handle = pipeline(binding, route, work, runtime);
      app.on(route.method, honoPath(route.path), (c) => handle(c.req.raw, c.req.param() as Record<string, string>));
    }
  }
  if (control) app.route(CONTROL_PREFIX, control(runtime));
  const answer = (request: Request, status: 404 | 500, detail: string) => {
    const where = noteOf(request)?.where ?? occurrence(new URL(request.url).pathname);
    return jsonResponse(
      status,
      problemBody(httpProblem(status === 404 ? 'not_found' : 'internal_error', detail), where),
    );
  };
  app.notFound((c) =>
    answer(c.req.raw, 404, `No operation of either variant is ${c.req.method} ${new URL(c.req.url).pathname}.`),
  );
  app.onError((error, c) => {
    runtime.onError(error);
    return answer(
      c.req.raw,
      500,
      'The sandbox failed while handling this request; it is safe to retry with the same Idempotency-Key.',
    );
  });
  return app;
}
