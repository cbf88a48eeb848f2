// The control API on the request pipeline: either variant's credentials, no faults, the checks generated from its
// document (packages/contract/openapi/sandbox/, never switched off: its work relies on them) and its optional Idempotency-Key kept by
// the pipeline, since a control operation's work may span several transactions.
import type { FieldError } from '@merchant-payments/contract/internal/shared/problem.js';
import { validateRequest, type Violation } from '@merchant-payments/contract/internal/validation/index.js';
import type { Answer } from '../core/index.js';
import { answerViolations, rejectionOf } from '../http/document-checks.js';
import type { ApiBinding, OperationWork, Outcome } from '../http/pipeline.js';
import { controlTenantLimit } from '../http/tenant-limit.js';
import type { SandboxRuntime } from '../runtime.js';
import type { Reply } from './reply.js';

/** What a control operation's work is given: the tenant, and the request's parts once they passed the checks. */
export interface ControlRequest {
  tenant: string;
  params: Record<string, string>;
  /** The declared query parameters, defaults filled in. */
  query: Record<string, unknown>;
  body: unknown;
  /** The request's headers (the listener reads whether it is a WebSocket upgrade). */
  headers: Headers;
}

/** What the document cannot say about a control operation: its work, and how its optional key is used. */
export interface ControlOperation {
  operationId: string;
  /** What the schema cannot say about a body that fits it (a URL with a host); each error names its member. */
  refine?(body: Record<string, unknown>): FieldError[];
  /** `record`: a sent Idempotency-Key replays the first answer; `check`: the key is checked but nothing is kept. */
  idempotency?: 'record' | 'check';
  run(request: ControlRequest): Reply | Promise<Reply>;
}

const MIXED = "Send either variant's credentials: Authorization: Bearer <token>, or X-Public-Key and X-Secret-Key.";
const CHALLENGE = { 'www-authenticate': 'Bearer realm="merchant-payments-sandbox"' };

/** The control API's binding; `refines` are its operations' refinements by operationId. */
export function controlBinding(
  runtime: SandboxRuntime,
  refines: ReadonlyMap<string, ControlOperation['refine']>,
): ApiBinding {
  return {
    // Note: no interceptor or pluggable validator sees a control operation, so the variant named here is never read.
    ref: ({ operationId, method, path }) => ({ variant: 'A', operationId, method: method as 'GET' | 'POST', path }),
    authenticate: (headers) => runtime.authenticate(headers),
    unauthorized(headers, detail) {
      const bearer = headers.has('authorization');
      return {
        detail: bearer || headers.has('x-public-key') || headers.has('x-secret-key') ? detail : MIXED,
        headers: bearer ? CHALLENGE : {},
      };
    },
    intercepted: false,
    // Note: refused past its merchant's rate limit and budget like a merchant request (the document declares 429), so
    // that a flood of control lists and views cannot stall other merchants.
    throttled: true,
    checkRequest({ operationId }, { params, query, headers, body }) {
      const checked = validateRequest('sandbox', operationId, { params, query, headers, body });
      const refine = refines.get(operationId);
      const object = typeof body === 'object' && body !== null && !Array.isArray(body);
      const extra =
        refine && object && (checked.ok || checked.status === 422) ? refine(body as Record<string, unknown>) : [];
      if (checked.ok && extra.length === 0) return { values: checked.request.query };
      const rejection = checked.ok
        ? {
            ok: false as const,
            status: 422 as const,
            code: 'validation_failed' as const,
            violations: refined([], extra),
          }
        : { ...checked, violations: refined(checked.violations, extra) };
      return rejectionOf(rejection);
    },
    checkResponse: ({ operationId }, status, headers, body) =>
      answerViolations('sandbox', operationId, status, headers, body),
    tenantLimited: (error, headers) => controlTenantLimit(error, headers.has('authorization') ? CHALLENGE : {}),
  };
}

/**
 * The schema's violations with a refinement's words in place of those at the same member and of a whole-body rule
 * (`not`), which can only name the body itself.
 */
function refined(violations: readonly Violation[], errors: readonly FieldError[]): Violation[] {
  if (errors.length === 0) return [...violations];
  const named = new Set(errors.map((error) => error.pointer));
  const kept = violations.filter((v) => !(v.in === 'body' && (v.pointer === '' || named.has(v.pointer))));
  return [...kept, ...errors.map((error) => ({ in: 'body' as const, ...error }))];
}

/** A control operation's work on the pipeline. */
export function controlWork(op: ControlOperation): OperationWork {
  return {
    key:
      op.idempotency === 'record'
        ? {
            scope: `_sandbox:${op.operationId}`,
            print: ({ params, body }) => ({ params, body: body ?? null }),
            keptBy: 'pipeline',
          }
        : undefined,
    replay: (answer: Answer): Outcome => (answer.ok ? (answer.body as Outcome) : { problem: answer.problem }),
    run: ({ tenant, params, values, body, headers }) =>
      Promise.resolve(op.run({ tenant, params, query: values, body, headers })),
  };
}
