// One request to one of the contract's operations, from credentials to response. The Idempotency-Key is held from
// before the request check until the command runs, so a second request with the same key gets 409 meanwhile. The
// command runs in one transaction of the store, and the answer is built once it has committed: a 2xx is never sent for
// a change the store did not keep.
import { beginIdempotent, execute, fingerprint, KEYED_COMMANDS, releaseIdempotent, runDue, type Answer, type Command, type TenantState } from '../core/index.js';
import type { SandboxRuntime } from '../runtime.js';
import type { OperationDef, VariantAdapter } from '../variants/operation.js';
import { readJsonBody } from './body.js';
import type { OperationRef, RequestCheck, RequestRejection } from './hooks.js';
import { checkedResponse } from './checked-response.js';
import { httpProblem, occurrence, problemBody, type Occurrence, type ProblemInput } from './problem.js';

/** The request handler of one operation of one variant. */
export function operationHandler(variant: VariantAdapter, op: OperationDef, runtime: SandboxRuntime) {
  const operation: OperationRef = { variant: variant.name, operationId: op.operationId, method: op.method, path: op.path };
  const keyed = KEYED_COMMANDS.has(op.operationId);
  return async (request: Request, pathParams: Record<string, string>): Promise<Response> => {
    const url = new URL(request.url);
    const where = occurrence(url.pathname);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => checkedResponse(runtime.validators, operation, where, status, body, headers);
    const problem = (p: ProblemInput, headers?: Record<string, string>) => send(p.status, problemBody(p, where), headers);

    const auth = await variant.authenticate(request.headers, runtime.store);
    if (!auth.ok) return problem(httpProblem('unauthorized', auth.detail), variant.challenge);
    const intercepted = await runtime.intercept?.({ operation, tenant: auth.tenant, request });
    if (intercepted) return intercepted;
    // Note: read even where the operation takes no body, so that the request check can refuse one that was sent.
    const read = await readJsonBody(request, runtime.maxBodyBytes);
    if (!read.ok) return problem(httpProblem('bad_request', read.detail, [{ pointer: '', detail: read.detail }]));

    const command = op.command({ id: Object.values(pathParams)[0] ?? '', query: url.searchParams, body: read.value });
    const key = keyed ? (request.headers.get('idempotency-key') ?? undefined) : undefined;
    const check: RequestCheck = { operation, pathParams, query: url.searchParams, headers: request.headers, body: read.value };
    const ran = await runChecked(runtime, auth.tenant, command, key, check, where);
    if ('rejection' in ran) return problem(rejectionProblem(ran.rejection));
    await runtime.settle(auth.tenant, ran.changed || auth.learned === true);

    const { answer } = ran;
    const { request_id: kept } = answer.ok ? {} : answer.problem;
    const body = answer.ok ? op.shape(answer.body) : problemBody(answer.problem, kept === undefined ? where : { instance: where.instance, requestId: kept });
    return send(answer.status, body, answer.replayed ? { 'idempotent-replayed': 'true' } : {});
  };
}

type Ran = { answer: Answer; changed: boolean } | { rejection: RequestRejection };

/** Holds the key (if any) while the request is checked, then runs the command, or answers at once (replay, 409, 422). */
async function runChecked(runtime: SandboxRuntime, id: string, command: Command, key: string | undefined, check: RequestCheck, where: Occurrence): Promise<Ran> {
  const { store } = runtime;
  const release = (tenant: TenantState) => key !== undefined && releaseIdempotent(tenant, command.type, key);
  if (key !== undefined) {
    const known = await store.transaction(id, (tenant) => beginIdempotent(tenant, command.type, key, fingerprint(command), runtime.now(tenant)));
    if (known.kind === 'answer') return { answer: known.answer, changed: false };
  }
  let rejection: RequestRejection | undefined;
  try {
    rejection = await runtime.validators.request?.(check);
  } catch (error) {
    if (key !== undefined) await store.transaction(id, release);
    throw error;
  }
  if (rejection) {
    if (key !== undefined) await store.transaction(id, release);
    return { rejection };
  }
  const keyed = key === undefined ? command : { ...command, idempotency_key: key, request_id: where.requestId };
  return store.transaction(id, (tenant) => {
    // Note: released in the command's own transaction, and execute takes the key again, so no request comes in between.
    release(tenant);
    const { answer, events } = execute(tenant, keyed, runtime.now(tenant));
    // Note: what the command made due (a cancel's webhook) runs now; settle sends it without the answer waiting for receivers.
    runDue(tenant, runtime.now(tenant));
    return { answer, changed: key !== undefined || events.length > 0 };
  });
}

function rejectionProblem(r: RequestRejection): ProblemInput {
  const title = r.status === 400 ? 'Bad request' : 'Unprocessable request';
  return { status: r.status, code: r.code ?? (r.status === 400 ? 'bad_request' : 'validation_failed'), title, detail: r.detail, errors: r.errors };
}
