// One control request from credentials to answer: 401, an unreadable body (400), the document's bounds (422), then
// the optional Idempotency-Key (replay, 409, 422 reused) around the route's own work.
import type { Context } from 'hono';
import { success } from '../core/answer.js';
import { beginIdempotent, completeIdempotent, fingerprint, releaseIdempotent, type Answer } from '../core/index.js';
import { readJsonBody } from '../http/body.js';
import { occurrence, type FieldError } from '../http/problem.js';
import type { SandboxRuntime } from '../runtime.js';
import { checkBody, checkQuery, idempotencyKey, type BodyRules, type QueryRule, type Rule } from './checks.js';
import { problemReply, replyResponse, type Reply } from './reply.js';

/** What a route's work is given: the tenant, and the request's parts once they passed the checks. */
export interface ControlRequest {
  tenant: string;
  params: Record<string, string>;
  /** The declared query parameters, defaults filled in. */
  query: Record<string, unknown>;
  body: unknown;
}

/** One operation of the control document: what it takes, and its work. */
export interface ControlOperation {
  operationId: string;
  /** Rules of the path parameters, by name. */
  params?: Readonly<Record<string, Rule>>;
  query?: Readonly<Record<string, QueryRule>>;
  /** The JSON body it takes; absent: it takes none. */
  body?: BodyRules;
  /** Checks across members, once each member fits its rule (a retry_after only with rate_limit, say). */
  refine?(body: Record<string, unknown>): FieldError[];
  /** `record`: a sent Idempotency-Key replays the first answer; `check`: the key is checked but nothing is kept. */
  idempotency?: 'record' | 'check';
  run(request: ControlRequest): Reply | Promise<Reply>;
}

const MIXED = 'Send either variant\'s credentials: Authorization: Bearer <token>, or X-Public-Key and X-Secret-Key.';

/** The hono handler of one control operation. */
export function controlHandler(runtime: SandboxRuntime, op: ControlOperation) {
  return async (c: Context): Promise<Response> => {
    const request = c.req.raw;
    const url = new URL(request.url);
    const where = occurrence(url.pathname);
    const send = (reply: Reply, headers?: Record<string, string>) => replyResponse(reply, where, headers);

    const bearer = request.headers.has('authorization');
    const auth = await runtime.authenticate(request.headers);
    if (!auth.ok) {
      const detail = bearer || request.headers.has('x-public-key') || request.headers.has('x-secret-key') ? auth.detail : MIXED;
      return send(problemReply('unauthorized', detail), bearer ? { 'www-authenticate': 'Bearer realm="merchant-payments-sandbox"' } : {});
    }
    const read = await readJsonBody(request, runtime.maxBodyBytes);
    const unreadable = !read.ok ? { pointer: '', detail: read.detail } : unreadableBody(op, read.value, request.headers.get('content-type'));
    if (unreadable) return send(problemReply('bad_request', unreadable.detail, [unreadable]));
    const body = read.ok ? read.value : undefined;

    const params = c.req.param() as Record<string, string>;
    const query = checkQuery(url.searchParams, op.query ?? {});
    // Note: only the operations that declare the header read it; on the others it is an undeclared header, ignored.
    const key = op.idempotency ? (request.headers.get('idempotency-key') ?? undefined) : undefined;
    const errors = [...checkParams(params, op.params ?? {}), ...query.errors, ...checkKey(key)];
    if (op.body) {
      const bodyErrors = checkBody(body, op.body);
      errors.push(...(bodyErrors.length === 0 && op.refine ? op.refine(body as Record<string, unknown>) : bodyErrors));
    }
    if (errors.length > 0) {
      const detail = errors.length === 1 ? `${errors[0]!.pointer}: ${errors[0]!.detail}` : `The request breaks the control API's document in ${errors.length} places; see errors.`;
      return send(problemReply('validation_failed', detail, errors));
    }

    const input: ControlRequest = { tenant: auth.tenant, params, query: query.values, body };
    const recorded = op.idempotency === 'record' && key !== undefined;
    const reply = recorded ? await runKeyed(runtime, op, input, key) : { ...(await op.run(input)), replayed: false };
    if (reply.changed || recorded || auth.learned) await runtime.save();
    return send(reply, reply.replayed ? { 'idempotent-replayed': 'true' } : {});
  };
}

/** Why a body cannot be taken at all (400), or undefined. */
function unreadableBody(op: ControlOperation, body: unknown, contentType: string | null): FieldError | undefined {
  if (body === undefined) return undefined;
  if (!op.body) return { pointer: '', detail: 'This operation takes no request body.' };
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/json') return undefined;
  return { pointer: '/Content-Type', detail: `Header "Content-Type" must be application/json${type ? `, not ${type}` : ' with a body'}.` };
}

function checkParams(params: Record<string, string>, rules: Readonly<Record<string, Rule>>): FieldError[] {
  return Object.entries(rules).flatMap(([name, rule]) => {
    const detail = rule(params[name]);
    return detail ? [{ pointer: `/${name}`, detail: `Path parameter "${name}": ${detail}` }] : [];
  });
}

function checkKey(key: string | undefined): FieldError[] {
  const detail = key === undefined ? undefined : idempotencyKey(key);
  return detail ? [{ pointer: '/Idempotency-Key', detail: `Header "Idempotency-Key": ${detail}` }] : [];
}

type Ran = Reply & { replayed: boolean };

/** Runs the work under the key, scoped to the tenant and the operation; the first answer is kept and replayed. */
async function runKeyed(runtime: SandboxRuntime, op: ControlOperation, input: ControlRequest, key: string): Promise<Ran> {
  const scope = `_sandbox:${op.operationId}`;
  const print = fingerprint({ params: input.params, body: input.body ?? null });
  const { store } = runtime;
  const known = await store.transaction(input.tenant, (tenant) => beginIdempotent(tenant, scope, key, print, runtime.now(tenant)));
  if (known.kind === 'answer') return { ...replayOf(known.answer), replayed: known.answer.ok };
  let reply: Reply;
  try {
    reply = await op.run(input);
  } catch (error) {
    await store.transaction(input.tenant, (tenant) => releaseIdempotent(tenant, scope, key));
    throw error;
  }
  // Note: retention counts from the answer on the tenant's clock, so a retry after an advance of days still replays.
  // A reset in between gave the tenant a new state without the record, and nothing is kept.
  await store.transaction(input.tenant, (tenant) => completeIdempotent(tenant, scope, key, success(reply), runtime.now(tenant)));
  return { ...reply, replayed: false };
}

/** The reply a key's record gives: the first answer, or the core's 409 or 422 for the key. */
function replayOf(answer: Answer): Reply {
  return answer.ok ? (answer.body as Reply) : { problem: answer.problem };
}
