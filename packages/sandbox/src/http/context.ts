// What hono carries for one request between the signals middleware and the routes (`c.set`, `c.get`): the request's
// occurrence (its id, shared by its log line and a problem's `request_id`), and what the pipeline learns of it.
import type { Context } from 'hono';
import { occurrence, type Occurrence } from './problem.js';
import type { StoppedBy } from './stopped-statement.js';

/** One request as the log and the metrics see it. */
export interface RequestNote {
  readonly where: Occurrence;
  /** The operationId the request reached; undefined when no operation matched (a 404). */
  operation?: string;
  /** The tenant's id (a hash of its credential), once the credentials were accepted. */
  tenant?: string;
  /** The tenant's merchant (itself, or a test tenant's parent), whose budget and rate limit the request counts against. */
  merchant?: string;
  /** The bound at which PostgreSQL stopped one of the request's statements, if it did. */
  stopped?: StoppedBy;
}

/** The sandbox app's hono environment. */
export interface SandboxEnv {
  Variables: { note: RequestNote };
}

/** The note the signals middleware set, or a new one for a request that reached the app without it. */
export function noteOf(c: Context<SandboxEnv>): RequestNote {
  let note = c.get('note') as RequestNote | undefined;
  if (!note) c.set('note', (note = { where: occurrence(new URL(c.req.url).pathname, c.req.header('x-request-id')) }));
  return note;
}
