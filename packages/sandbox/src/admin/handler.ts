// The admin API on the request pipeline: the operator's admin token (compared in constant time), never a tenant's
// credentials, no faults, no rate limit, and the checks generated from its document (packages/contract/openapi/admin/), always on.
import { timingSafeEqual } from 'node:crypto';
import { validateRequest } from '@merchant-payments/contract/internal/validation/index.js';
import { answerViolations, rejectionOf } from '../http/document-checks.js';
import type { ApiBinding, OperationWork, Outcome } from '../http/pipeline.js';
import type { SandboxRuntime } from '../runtime.js';
import { digest } from '../stores/issued-credentials.js';

/** The admin API's challenge (packages/contract/openapi/admin/components/headers/AdminWwwAuthenticate.yaml), apart from the merchant API's realm. */
export const ADMIN_CHALLENGE = { 'www-authenticate': 'Bearer realm="merchant-payments-sandbox-admin"' };
/** The detail of the admin API's 401 to a request with no bearer token. */
export const ADMIN_UNAUTHORIZED = 'Send the admin token: Authorization: Bearer <SANDBOX_ADMIN_TOKEN>.';
/** The detail of its 401 to a bearer token that is not the admin token: it was sent, and it was refused. */
export const ADMIN_REFUSED = "The admin token was refused: it is not this sandbox's SANDBOX_ADMIN_TOKEN.";
/** What the pipeline names the admin as, in place of a tenant (the request log, the rate limiter's count); no tenant id has this form. */
export const ADMIN_CALLER = '_admin';

const BEARER = /^Bearer +([^\s]+) *$/i;

/** What an admin operation's work is given once the request passed the document's checks. */
export interface AdminRequest {
  params: Record<string, string>;
  /** The declared query parameters, defaults filled in. */
  query: Record<string, unknown>;
  body: unknown;
}

/** An admin operation: its operationId and its work, which answers a status and body (none for 204), or a problem. */
export interface AdminOperation {
  operationId: string;
  run(request: AdminRequest): Promise<Outcome>;
}

/** The admin API's binding; `adminToken` is the operator's SANDBOX_ADMIN_TOKEN. */
export function adminBinding(runtime: SandboxRuntime, adminToken: string): ApiBinding {
  // Note: both sides are hashed first, so that timingSafeEqual compares equal lengths and the time says nothing of the token's length.
  const expected = digest(adminToken);
  return {
    // Note: no interceptor or pluggable validator sees an admin operation, so the variant named here is never read.
    ref: ({ operationId, method, path }) => ({ variant: 'A', operationId, method: method as 'GET' | 'POST', path }),
    authenticate(headers) {
      const token = BEARER.exec(headers.get('authorization') ?? '')?.[1];
      const ok = timingSafeEqual(digest(token ?? ''), expected) && token !== undefined;
      if (ok) return { ok: true, tenant: ADMIN_CALLER, merchant: ADMIN_CALLER };
      return { ok: false, detail: token === undefined ? ADMIN_UNAUTHORIZED : ADMIN_REFUSED };
    },
    unauthorized: (_headers, detail) => ({ detail, headers: ADMIN_CHALLENGE }),
    intercepted: false,
    // Note: counted by a rate limit, as every request is, but never refused: the admin document declares no 429.
    throttled: false,
    checkRequest({ operationId }, { params, query, headers, body }) {
      const checked = validateRequest('admin', operationId, { params, query, headers, body });
      return checked.ok ? { values: checked.request.query } : rejectionOf(checked);
    },
    checkResponse: ({ operationId }, status, headers, body) =>
      answerViolations('admin', operationId, status, headers, body),
  };
}

/** An admin operation's work on the pipeline: no Idempotency-Key (a replay would have to show secrets that are not kept). */
export function adminWork(op: AdminOperation): OperationWork {
  return {
    key: undefined,
    replay: () => {
      throw new Error('The admin API keeps no answers to replay.');
    },
    run: ({ params, values, body }) => op.run({ params, query: values, body }),
  };
}
