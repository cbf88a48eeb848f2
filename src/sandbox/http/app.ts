// The sandbox as one hono app: each variant's operations at the spec's paths, the control API under /_sandbox, and a
// problem for anything else. It only routes; what a request does is in operation-handler.ts and the core.
import { Hono } from 'hono';
import type { SandboxRuntime } from '../runtime.js';
import type { VariantAdapter } from '../variants/operation.js';
import { CONTROL_PREFIX, type ControlRoutes } from './control.js';
import { operationHandler } from './operation-handler.js';
import { httpProblem, jsonResponse, occurrence, problemBody } from './problem.js';

/** `/payments/{id}` (the spec) as `/payments/:id` (hono). */
export const honoPath = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

/** The app that serves `variants` and, when given, the control routes. */
export function createApp(runtime: SandboxRuntime, variants: readonly VariantAdapter[], control?: ControlRoutes): Hono {
  const app = new Hono();
  for (const variant of variants) {
    for (const op of variant.operations) {
      const handle = operationHandler(variant, op, runtime);
      app.on(op.method, honoPath(op.path), (c) => handle(c.req.raw, c.req.param() as Record<string, string>));
    }
  }
  if (control) app.route(CONTROL_PREFIX, control(runtime));
  const answer = (request: Request, status: 404 | 500, detail: string) => {
    const where = occurrence(new URL(request.url).pathname);
    return jsonResponse(status, problemBody(httpProblem(status === 404 ? 'not_found' : 'internal_error', detail), where));
  };
  app.notFound((c) => answer(c.req.raw, 404, `No operation of either variant is ${c.req.method} ${new URL(c.req.url).pathname}.`));
  app.onError((error, c) => {
    runtime.onError(error);
    return answer(c.req.raw, 500, 'The sandbox failed while handling this request; it is safe to retry with the same Idempotency-Key.');
  });
  return app;
}
