// How a request that would make a new tenant past open mode's bound (a store's TenantLimitError) is answered: the
// merchant APIs with 429 `tenant_limit_reached` and Retry-After, the control API, which declares no 429, with 401.
import type { TenantLimitError } from '../stores/tenant-limit-error.js';
import { httpProblem, type ProblemInput } from './problem.js';

/** What the detail says of the bound in either answer: the limit, the idle time, and when to retry. */
const bound = (error: TenantLimitError) =>
  `The sandbox holds its most tenants (${error.max}), and these credentials would make a new one. A tenant no request ` +
  `has used for ${error.idleSeconds} s is forgotten with its state, the next in ${error.retryAfter} s`;

/** A merchant request's answer: 429 `tenant_limit_reached`, Retry-After the seconds until an idle tenant is forgotten. */
export function merchantTenantLimit(error: TenantLimitError): {
  problem: ProblemInput;
  headers: Record<string, string>;
} {
  return {
    problem: httpProblem(
      'tenant_limit_reached',
      `${bound(error)}: retry after ${error.retryAfter} s (Retry-After), or use credentials the sandbox already knows.`,
    ),
    headers: { 'retry-after': String(error.retryAfter) },
  };
}

/**
 * A control request's answer: 401 `unauthorized`, whose detail names the bound and when to retry.
 * Note: the control API's 401 already means "these credentials name no tenant this sandbox serves now", as in issued
 * mode; its 429 is a merchant's own rate limit or budget, for a tenant that exists. The merchant request that made the
 * same tenant gets 429.
 */
export function controlTenantLimit(
  error: TenantLimitError,
  challenge: Record<string, string>,
): { problem: ProblemInput; headers: Record<string, string> } {
  return {
    problem: httpProblem('unauthorized', `${bound(error)}: retry then, or use credentials the sandbox already knows.`),
    headers: challenge,
  };
}
