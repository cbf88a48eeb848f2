// The checks one answer is judged by (the checks Schemathesis runs; their rules are in the registry), and what an answer
// shows of the object it is about.
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import {
  validateResponse,
  type OperationSpec,
  type Variant,
  type Violation,
} from '@merchant-payments/contract/internal/validation/index.js';
import type { CheckName } from './registry.js';

/** Which requests a check applies to: all, those that fit the contract, those that break it, those without credentials. */
export type RequestKind = 'valid' | 'invalid' | 'unauthenticated';

export interface Verdict {
  check: CheckName;
  ok: boolean;
  detail?: string;
}

/** What was received: status, headers, body text and the body parsed (undefined when not JSON). */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

const describe = (violations: Violation[]) =>
  violations.map((violation) => `${violation.pointer || '(body)'}: ${violation.detail}`).join('; ');
const codeOf = (json: unknown) => (json && typeof json === 'object' ? (json as { code?: unknown }).code : undefined);

function conformance(variant: Variant, operation: OperationSpec, answer: Answer): Verdict[] {
  const violations = validateResponse(variant, operation, {
    status: answer.status,
    headers: answer.headers,
    rawBody: answer.text === '' ? null : answer.text,
  });
  const of = (select: (violation: Violation) => boolean) => violations.filter(select);
  const status = of((violation) => violation.in === 'status');
  if (status.length > 0) return [{ check: 'status_code_conformance', ok: false, detail: describe(status) }];
  const contentType = of((violation) => violation.in === 'header' && violation.pointer === '/Content-Type');
  const headers = of((violation) => violation.in === 'header' && violation.pointer !== '/Content-Type');
  const body = of((violation) => violation.in === 'body');
  return [
    { check: 'status_code_conformance', ok: true },
    { check: 'content_type_conformance', ok: contentType.length === 0, detail: describe(contentType) },
    { check: 'response_headers_conformance', ok: headers.length === 0, detail: describe(headers) },
    // Note: with the wrong media type the body was not judged, so it is not reported as passing either.
    ...(contentType.length === 0
      ? [{ check: 'response_schema_conformance' as const, ok: body.length === 0, detail: describe(body) }]
      : []),
  ];
}

function expectation(kind: RequestKind, answer: Answer): Verdict | undefined {
  const { status } = answer;
  if (status >= 500) return undefined;
  if (kind === 'unauthenticated')
    return { check: 'ignored_auth', ok: status === 401, detail: `got ${status} without credentials` };
  if (kind === 'invalid') {
    const ok = status >= 400 && status < 500 && status !== 401 && status !== 403;
    return { check: 'negative_data_rejection', ok, detail: `a request that breaks the contract got ${status}` };
  }
  // Note: the contract's 422 validation_failed also covers well-formed requests that break a business rule (an appeal
  // in another currency than its payment), so a 422 is no proof that a valid request was misjudged; a 400 is.
  const refused = status === 404 || status === 409 || status === 422 || status === 429;
  const ok = (status >= 200 && status < 300) || refused;
  const code = codeOf(answer.json);
  return {
    check: 'positive_data_acceptance',
    ok,
    detail: `a request that fits the contract got ${status}${typeof code === 'string' ? ` (${code})` : ''}`,
  };
}

/** Every verdict on one answer to a request of `kind`. */
export function judge(variant: Variant, operation: OperationSpec, kind: RequestKind, answer: Answer): Verdict[] {
  const verdicts: Verdict[] = [
    { check: 'request_completed', ok: true },
    { check: 'not_a_server_error', ok: answer.status < 500, detail: `got ${answer.status}` },
  ];
  verdicts.push(...conformance(variant, operation, answer));
  const expected = expectation(kind, answer);
  if (expected) verdicts.push(expected);
  return verdicts;
}

const KINDS: Record<string, ObjectKind> = { payments: 'payment', payouts: 'payout', appeals: 'appeal' };

/** The kind of object an operation's path is about (`/payments/{id}/cancel` → payment), if any. */
export const kindOf = (path: string): ObjectKind | undefined =>
  KINDS[path.split('/').find((segment) => segment in KINDS) ?? ''];

/** The object with an id and a status in an answer, wherever the variant puts it: top level or one object down. */
export function objectOf(json: unknown): { id: string; status: string } | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  for (const candidate of [json, ...Object.values(json as Record<string, unknown>)]) {
    if (!candidate || typeof candidate !== 'object' || Array.isArray(candidate)) continue;
    const { id, status } = candidate as { id?: unknown; status?: unknown };
    if (typeof id === 'string' && typeof status === 'string') return { id, status };
  }
  return undefined;
}
