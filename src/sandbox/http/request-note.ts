// What the request log learns of a request while the pipeline handles it: its operation, its tenant and the occurrence
// whose id a problem answer carries, so that the log line and the problem name the same request id.
import { occurrence, type Occurrence } from './problem.js';

/** One request as the log and the metrics see it. */
export interface RequestNote {
  readonly where: Occurrence;
  /** The operationId the request reached; undefined when no operation matched (a 404). */
  operation?: string;
  /** The tenant's id (a hash of its credential), once the credentials were accepted. */
  tenant?: string;
}

// Note: keyed by the Request object itself, which hono hands to every route unchanged; a WeakMap lets it go with the request.
const notes = new WeakMap<Request, RequestNote>();

/** Starts the note of a request to `path` (its path, never its query string), under its X-Request-Id when it sent a fitting one. */
export function beginNote(request: Request, path: string): RequestNote {
  const note: RequestNote = { where: occurrence(path, request.headers.get('x-request-id')) };
  notes.set(request, note);
  return note;
}

/** The note of a request begun with beginNote, if any (a request handed to the app directly has none). */
export const noteOf = (request: Request): RequestNote | undefined => notes.get(request);
