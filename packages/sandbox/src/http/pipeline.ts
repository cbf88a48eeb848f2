// The one request pipeline of every operation, merchant and control alike: credentials (401), the merchant's rate
// limit and its budget of requests at work (429, where the API declares it), faults where the API takes them, the body
// within its cap (400), the request checked against the contract (400/422) while its Idempotency-Key is marked in
// flight, the operation's work (a merchant command: one store transaction that also looks the key up and keeps the
// answer), and its answer checked against the contract. What differs between the APIs is the data of an ApiBinding;
// what differs between operations, the data of an OperationWork.
import type { Context } from 'hono';
import type { FieldError } from '@merchant-payments/contract/internal/shared/problem.js';
import { fingerprint, type Answer, type TenantReads } from '../core/index.js';
import type { Authentication, SandboxRuntime } from '../runtime.js';
import type { StoreSession } from '../stores/types.js';
import { TenantLimitError } from '../stores/tenant-limit-error.js';
import { TenantRevokedError } from '../stores/tenant-revoked-error.js';
import { NOT_A_TEST_TENANT, NOT_ISSUED } from '../variants/credentials.js';
import { readJsonBody } from './body.js';
import { checkedResponse } from './checked-response.js';
import type { OperationRef, RequestRejection } from './hooks.js';
import { holdKey, type KeyHold } from './idempotency.js';
import { noteOf, type SandboxEnv } from './context.js';
import { stoppedAnswer, stoppedBy } from './stopped-statement.js';
import { httpProblem, problemBody, type ProblemInput } from './problem.js';

/** An operation as the generated index names it, with the API it belongs to. */
export interface Route {
  operationId: string;
  method: string;
  /** The path template as the document writes it. */
  path: string;
}

/** What an operation's work answers: a status and a JSON body (none for a 204), or a problem; `replayed` when it repeats a key's first answer. */
export type Outcome = (
  { status: number; body?: unknown } | { problem: ProblemInput & { request_id?: string | undefined } }
) & { replayed?: boolean };

/** The parts of a request the work and the checks read. */
export interface RequestParts {
  tenant: string;
  params: Record<string, string>;
  query: URLSearchParams;
  headers: Headers;
  /** The parsed JSON body; undefined when there was none. */
  body: unknown;
}

/** What the work is given: the request's parts, the declared query values (defaults filled in) and the key. */
export interface WorkInput extends RequestParts {
  /** The request's store session, for the work's transactions on the tenant. */
  session: StoreSession;
  values: Record<string, unknown>;
  /** The Idempotency-Key sent, for work whose key the core keeps (`keptBy: 'core'`). */
  key: string | undefined;
  /** The key held for the work, when the pipeline keeps its answer (`keptBy: 'pipeline'`). */
  hold: KeyHold | undefined;
  /** This request's id, which a problem the key keeps carries. */
  requestId: string;
}

/** What the contract cannot say about an operation: its work, and how it is keyed. */
export interface OperationWork {
  /**
   * How a sent Idempotency-Key is used: its scope and the request's fingerprint, and who keeps the answer (`core`: the
   * command's own transaction looks it up and keeps it; `pipeline`: a hold of its own around work that spans several
   * transactions, kept after the work). Absent: the operation reads no key.
   */
  key?: { scope: string; print(parts: RequestParts): unknown; keptBy: 'core' | 'pipeline' } | undefined;
  run(input: WorkInput): Promise<Outcome>;
  /** What the work will read of the tenant, from what is known before the body is read. */
  reads?(parts: { params: Record<string, string>; query: URLSearchParams; headers: Headers }): TenantReads | undefined;
  /** The outcome an answer kept under the key replays. */
  replay(answer: Answer): Outcome;
}

/** A request check's verdict: a rejection, or the declared query values. */
export type RequestVerdict = { rejection: RequestRejection } | { values: Record<string, unknown> };

/** What differs between the APIs, as data: credentials, faults, the contract's checks, and what follows the work. */
export interface ApiBinding {
  /** How the contract's checks and the fault interceptor name an operation of this API. */
  ref(route: Route): OperationRef;
  authenticate(headers: Headers, session: StoreSession): Authentication | Promise<Authentication>;
  /** The merchant the credentials would name, when known before `authenticate` reads the store (see VariantAdapter). */
  merchantBefore?(headers: Headers): string | undefined;
  /** The 401's detail and headers (a `WWW-Authenticate` challenge). */
  unauthorized(headers: Headers, detail: string): { detail: string; headers: Record<string, string> };
  /** Whether the runtime's interceptor (faults) sees this API's requests. */
  intercepted: boolean;
  /**
   * Whether a request over its merchant's rate limit is refused (429), and whether its store work waits for the
   * merchant's budget; otherwise it is only counted, as a document without a 429 needs.
   */
  throttled: boolean;
  checkRequest(ref: OperationRef, parts: RequestParts): RequestVerdict | Promise<RequestVerdict>;
  checkResponse(
    ref: OperationRef,
    status: number,
    headers: Headers,
    body: unknown,
  ): FieldError[] | undefined | Promise<FieldError[] | undefined>;
  /**
   * The answer to a request that would make a new tenant past open mode's bound (a store's TenantLimitError); absent
   * for an API that never makes a tenant (the admin API), where such an error is a failure of the sandbox.
   */
  tenantLimited?(error: TenantLimitError, headers: Headers): { problem: ProblemInput; headers: Record<string, string> };
}

/** The hono handler of one operation. */
export function pipeline(binding: ApiBinding, route: Route, work: OperationWork, runtime: SandboxRuntime) {
  const ref = binding.ref(route);
  const handle = async (c: Context<SandboxEnv>): Promise<Response> => {
    const request = c.req.raw;
    const params = c.req.param() as Record<string, string>;
    const url = new URL(request.url);
    const note = noteOf(c);
    const { where } = note;
    note.operation = route.operationId;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      checkedResponse(
        (s, h, b) => binding.checkResponse(ref, s, h, b),
        route.operationId,
        where,
        status,
        body,
        headers,
      );
    const problem = (p: ProblemInput, headers?: Record<string, string>) =>
      send(p.status, problemBody(p, where), headers);

    /** The request's store work, within its merchant's budget; `idle` gives the turn back while a fault holds it. */
    const inBudget = async (
      auth: { tenant: string },
      session: StoreSession,
      idle: (() => void) | undefined,
    ): Promise<Response> => {
      if (binding.intercepted) {
        // Note: a request a `timeout` fault holds gives its turn back (`idle`), as it does no store work meanwhile.
        const intercepted = await runtime.intercept?.({
          operation: ref,
          tenant: auth.tenant,
          request,
          session,
          idle,
        });
        if (intercepted) return intercepted;
      }
      // Note: read even where the operation takes no body, so that the request check can refuse one that was sent.
      const read = await readJsonBody(request, runtime.maxBodyBytes);
      if (!read.ok) return problem(httpProblem('bad_request', read.detail, [{ pointer: '', detail: read.detail }]));
      const parts: RequestParts = {
        tenant: auth.tenant,
        params,
        query: url.searchParams,
        headers: request.headers,
        body: read.value,
      };

      const outcome = await runKeyed(binding, ref, work, runtime, parts, where.requestId, session);
      if ('rejection' in outcome) return problem(rejectionProblem(outcome.rejection));
      const headers: Record<string, string> = outcome.replayed ? { 'idempotent-replayed': 'true' } : {};
      if (!('problem' in outcome)) return send(outcome.status, outcome.body, headers);
      const kept = outcome.problem.request_id;
      return send(
        outcome.problem.status,
        problemBody(outcome.problem, kept === undefined ? where : { instance: where.instance, requestId: kept }),
        headers,
      );
    };

    // Note: the credentials, a fault and the work each take a transaction on the tenant and share what the first one
    // read (StoreSession), which reads what the work names too: once the request is inside its merchant's budget, so
    // that a deep page waits its merchant's turn. Where the merchant is known before the credentials read the store
    // (Variant B's open key pairs), the budget comes first and the credentials' transaction reads it all.
    const session: StoreSession = {};
    const attachReads = () => {
      const reads = work.reads?.({ params, query: url.searchParams, headers: request.headers });
      if (reads) session.reads = reads;
    };
    const early = binding.throttled ? binding.merchantBefore?.(request.headers) : undefined;
    let budget = early === undefined ? undefined : await runtime.budget.enter(early);
    if (budget && !budget.ok) return problem(budget.problem, budget.headers);
    if (budget) attachReads();
    try {
      const auth = await binding.authenticate(request.headers, session);
      if (!auth.ok) {
        const refused = binding.unauthorized(request.headers, auth.detail);
        return problem(httpProblem('unauthorized', refused.detail), refused.headers);
      }
      note.tenant = auth.tenant;
      note.merchant = auth.merchant;
      // Note: after the credentials, so that the bucket is the merchant's, and before faults, so that a faulted request counts.
      const turn = runtime.rateLimit?.take(auth.merchant, binding.throttled);
      if (turn && !turn.ok) return problem(turn.problem, turn.headers);
      if (!budget) {
        if (binding.throttled) budget = await runtime.budget.enter(auth.merchant);
        if (budget && !budget.ok) return problem(budget.problem, budget.headers);
        attachReads();
      }
      return await inBudget(auth, session, budget?.ok ? budget.release : undefined);
    } finally {
      if (budget?.ok) budget.release();
    }
  };
  // Note: any of the request's transactions may be the one that would make its tenant (Variant B's credentials, a
  // fault, a control key's hold, the work), and none has changed anything when it is refused.
  // Note: typed with the sandbox's env, which the app's middleware sets, while the APIs' routes stay plain Hono apps
  // (ControlRoutes is public); noteOf makes a note for a request that came without one.
  return async (c: Context<SandboxEnv>): Promise<Response> => {
    try {
      return await handle(c);
    } catch (error) {
      const note = noteOf(c);
      const { where } = note;
      // Note: the tenant was revoked while the request was on its way; it reads as every other refused credential.
      if (error instanceof TenantRevokedError) {
        const detail = runtime.credentials.auth === 'issued' ? NOT_ISSUED : NOT_A_TEST_TENANT;
        const refused = binding.unauthorized(c.req.raw.headers, detail);
        const body = problemBody(httpProblem('unauthorized', refused.detail), where);
        return checkedResponse(
          (s, h, b) => binding.checkResponse(ref, s, h, b),
          route.operationId,
          where,
          401,
          body,
          refused.headers,
        );
      }
      const stopped = stoppedBy(error);
      if (stopped === undefined && (!(error instanceof TenantLimitError) || !binding.tenantLimited)) throw error;
      // Note: the request's log line (http/signals.ts) names the bound with the tenant, merchant and operation.
      if (stopped !== undefined) note.stopped = stopped;
      const refused =
        stopped !== undefined
          ? stoppedAnswer(stopped, binding.throttled)
          : binding.tenantLimited!(error as TenantLimitError, c.req.raw.headers);
      return checkedResponse(
        (s, h, b) => binding.checkResponse(ref, s, h, b),
        route.operationId,
        where,
        refused.problem.status,
        problemBody(refused.problem, where),
        refused.headers,
      );
    }
  };
}

type Ran = Outcome | { rejection: RequestRejection };

/**
 * Checks the request and runs the work. A key the core keeps is marked in flight on this instance meanwhile (a second
 * request with it is 409, or 422 with another body); a key the pipeline keeps is held in the store first (replay, 409,
 * 422 at once), let go if the request is refused or the work throws, and kept with the work's answer.
 */
async function runKeyed(
  binding: ApiBinding,
  ref: OperationRef,
  work: OperationWork,
  runtime: SandboxRuntime,
  parts: RequestParts,
  requestId: string,
  session: StoreSession,
): Promise<Ran> {
  const key = work.key === undefined ? undefined : (parts.headers.get('idempotency-key') ?? undefined);
  const print = key !== undefined && work.key ? fingerprint(work.key.print(parts)) : undefined;
  if (key === undefined || print === undefined || !work.key || work.key.keptBy === 'core') {
    const flight =
      key === undefined || print === undefined || !work.key
        ? undefined
        : runtime.inFlight.enter(parts.tenant, work.key.scope, key, print);
    if (flight && 'answer' in flight) return work.replay(flight.answer);
    try {
      const verdict = await binding.checkRequest(ref, parts);
      if ('rejection' in verdict) return verdict;
      return await work.run({ ...parts, values: verdict.values, key, hold: undefined, requestId, session });
    } finally {
      flight?.leave();
    }
  }
  const held = await holdKey(runtime, parts.tenant, work.key.scope, key, print);
  if ('answer' in held) return { ...work.replay(held.answer), replayed: held.answer.replayed === true };
  const { hold } = held;
  let outcome: Outcome;
  try {
    const verdict = await binding.checkRequest(ref, parts);
    if ('rejection' in verdict) {
      await hold.release();
      return verdict;
    }
    outcome = await work.run({ ...parts, values: verdict.values, key, hold, requestId, session });
  } catch (error) {
    await hold.release();
    throw error;
  }
  await hold.keep(outcome);
  return outcome;
}

function rejectionProblem(r: RequestRejection): ProblemInput {
  const title = r.status === 400 ? 'Bad request' : 'Unprocessable request';
  return {
    status: r.status,
    code: r.code ?? (r.status === 400 ? 'bad_request' : 'validation_failed'),
    title,
    detail: r.detail,
    errors: r.errors,
  };
}
