// The sandbox as one hono app: the middleware every request goes through first, the APIs' routes mounted at their
// prefixes (each variant's operations, the control API under /_sandbox, the admin API under /_admin), and a problem
// for anything else. It only routes; what a request goes through is pipeline.ts, and what it does is the core's.
import { Hono, type MiddlewareHandler } from 'hono';
import type { SandboxRuntime } from '../runtime.js';
import { noteOf, type SandboxEnv } from './context.js';
import { httpProblem, jsonResponse, problemBody } from './problem.js';

/** `/payments/{id}` (the spec) as `/payments/:id` (hono). */
export const honoPath = (template: string) => template.replace(/\{([^}]+)\}/g, ':$1');

/** An API's routes and the prefix they are mounted at ('' for the variants, whose paths are the contract's). */
export interface MountedRoutes {
  prefix: string;
  routes: Hono;
}

/** The app: `middleware` first, then `apis` at their prefixes, in order. */
export function createApp(
  runtime: SandboxRuntime,
  apis: readonly MountedRoutes[],
  middleware: MiddlewareHandler<SandboxEnv>[] = [],
): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  for (const handler of middleware) app.use(handler);
  for (const { prefix, routes } of apis) app.route(prefix || '/', routes);
  const answer = (c: Parameters<Parameters<typeof app.notFound>[0]>[0], status: 404 | 500, detail: string) =>
    jsonResponse(
      status,
      problemBody(httpProblem(status === 404 ? 'not_found' : 'internal_error', detail), noteOf(c).where),
    );
  app.notFound((c) =>
    answer(c, 404, `No operation of either variant is ${c.req.method} ${new URL(c.req.url).pathname}.`),
  );
  app.onError((error, c) => {
    runtime.onError(error);
    return answer(
      c,
      500,
      'The sandbox failed while handling this request; it is safe to retry with the same Idempotency-Key.',
    );
  });
  return app;
}
