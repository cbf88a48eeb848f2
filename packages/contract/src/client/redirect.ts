// Which redirects a call may follow: by default none; with `follow-same-origin`, only those that keep the
// request exactly as it was, within the origin the credentials belong to.
import type { RedirectMode } from './options.js';

/** The most redirects one attempt follows in `follow-same-origin` mode. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** True for an answer that points elsewhere (a browser's `manual` mode hides it as an opaque redirect with status 0). */
export function isRedirect(response: Response): boolean {
  return REDIRECT_STATUSES.has(response.status) || response.type === 'opaqueredirect';
}

/** Where a redirect points, resolved against the URL it answered; undefined when there is no readable Location. */
export function locationOf(response: Response, from: string): string | undefined {
  const location = response.headers.get('location');
  if (location === null) return undefined;
  try {
    return new URL(location, from).href;
  } catch {
    return undefined;
  }
}

/** What a redirect would need to be followed. */
export interface RedirectStep {
  mode: RedirectMode;
  method: string;
  status: number;
  from: string;
  location: string | undefined;
  /** Redirects already followed in this attempt. */
  hops: number;
}

/** Why this redirect is not followed, or undefined when it may be. */
export function refusal(step: RedirectStep): string | undefined {
  if (step.mode === 'error') {
    return (
      "redirects are never followed by default, so credentials and the body stay with the API's origin; " +
      "if the service moved, update baseUrl (or pass redirect: 'follow-same-origin')"
    );
  }
  if (step.location === undefined) return 'it carries no Location the client can read';
  const origin = new URL(step.from).origin;
  const target = new URL(step.location).origin;
  // Note: the origin includes the scheme, so an https to http downgrade is refused here too.
  if (target !== origin)
    return `it leaves ${origin} for ${target}, and credentials are never sent outside the API's origin`;
  if (step.status !== 307 && step.status !== 308 && step.method !== 'GET' && step.method !== 'HEAD') {
    return (
      `following a ${step.status} would turn the ${step.method} into a GET; whether the request was processed is ` +
      'unknown, so check baseUrl and resend with the same Idempotency-Key'
    );
  }
  if (step.hops >= MAX_REDIRECTS) return `it is the ${MAX_REDIRECTS + 1}th redirect in a row`;
  return undefined;
}
