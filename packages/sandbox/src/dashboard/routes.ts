// The dashboard (/_dashboard/): the page's built files, served as they are with a Content-Security-Policy of their own.
// Nothing here reads a tenant: the page signs in and calls the variants' and the control API's operations itself,
// through the package's typed clients, like any other client of the sandbox.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { noteOf, type SandboxEnv } from '../http/context.js';
import { httpProblem, jsonResponse, problemBody } from '../http/problem.js';

/** The path the dashboard is served under. */
export const DASHBOARD_PREFIX = '/_dashboard';

/**
 * The policy of every dashboard response: the page's own origin only, for scripts, styles and requests, and nothing
 * inline, so that neither a crafted field value nor another site can run code in the tab that holds the credentials.
 */
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * Where the built page is in an installed package (dist/dashboard, beside dist/src) and in the repository, where the
 * sources run and `npm run build` writes the same folder: the package's root is the nearest folder with a package.json.
 */
export function defaultDashboardAssets(from = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dist', 'dashboard');
}

/** The dashboard's routes, relative to DASHBOARD_PREFIX, serving the built files in `assets`. */
export function dashboardRoutes(assets: string): Hono {
  const app = new Hono();
  app.use(async (c, next) => {
    await next();
    c.res.headers.set('Content-Security-Policy', DASHBOARD_CSP);
    c.res.headers.set('X-Content-Type-Options', 'nosniff');
    c.res.headers.set('Referrer-Policy', 'no-referrer');
    c.res.headers.set('Cache-Control', 'no-store');
  });
  // Note: the page's assets are addressed relative to /_dashboard/, so the bare path moves there.
  app.get('', (c) => c.redirect(`${DASHBOARD_PREFIX}/`, 308));
  // Note: made once the folder exists, since serveStatic complains on stderr about a missing one, and a sandbox run
  // from the sources before a build has none.
  let serve: MiddlewareHandler | undefined;
  const lazily: MiddlewareHandler = (c, next) => {
    serve ??= existsSync(assets)
      ? serveStatic({ root: assets, rewriteRequestPath: (where) => where.slice(DASHBOARD_PREFIX.length) || '/' })
      : undefined;
    return serve ? serve(c, next) : next();
  };
  app.use('*', lazily);
  app.all('*', (c: Context<SandboxEnv>) => {
    const built = existsSync(path.join(assets, 'index.html'));
    return jsonResponse(
      404,
      problemBody(
        httpProblem(
          'not_found',
          built
            ? `The dashboard has no file ${new URL(c.req.url).pathname}.`
            : 'The dashboard is not built here: run `npm run build` (or `node scripts/build.mjs sandbox`) in the repository.',
        ),
        noteOf(c).where,
      ),
    );
  });
  return app;
}
