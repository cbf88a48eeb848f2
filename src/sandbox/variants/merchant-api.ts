// A variant's operations on the request pipeline: its credentials and the runtime's (pluggable) contract checks as
// the binding, and each operation's work as the core command it runs in one transaction, answered in its shape.
import { execute, failure, KEYED_COMMANDS, runDue, type Answer, type TenantState } from '../core/index.js';
import type { OperationWork, ApiBinding, Outcome } from '../http/pipeline.js';
import { merchantTenantLimit } from '../http/tenant-limit.js';
import type { SandboxRuntime } from '../runtime.js';
import { COMMANDS, type MerchantOperationId, type Shape, type VariantAdapter } from './operation.js';

/** The binding of a variant: its credentials, faults, and the runtime's validators. */
export function variantBinding(variant: VariantAdapter, runtime: SandboxRuntime): ApiBinding {
  return {
    ref: ({ operationId, method, path }) => ({
      variant: variant.name,
      operationId,
      method: method as 'GET' | 'POST',
      path,
    }),
    authenticate: (headers) => variant.authenticate(headers, runtime.credentials),
    unauthorized: (_headers, detail) => ({ detail, headers: variant.challenge }),
    intercepted: true,
    throttled: true,
    async checkRequest(operation, { params, query, headers, body }) {
      const rejection = await runtime.validators.request?.({ operation, pathParams: params, query, headers, body });
      return rejection ? { rejection } : { values: {} };
    },
    checkResponse: (operation, status, headers, body) =>
      runtime.validators.response?.({ operation, status, headers, body }),
    settle: (tenant, changed) => runtime.settle(tenant, changed),
    tenantLimited: merchantTenantLimit,
  };
}

/** The work of a merchant operation, or undefined for an operationId the sandbox does not run. */
export function merchantWork(
  variant: VariantAdapter,
  operationId: string,
  runtime: SandboxRuntime,
): OperationWork | undefined {
  const build = COMMANDS[operationId as MerchantOperationId];
  const shape = variant.shapes[operationId as MerchantOperationId];
  if (!build || !shape) return undefined;
  const command = (params: Record<string, string>, query: URLSearchParams, body: unknown) =>
    build({ id: Object.values(params)[0] ?? '', query, body });
  const replay = (answer: Answer): Outcome => outcomeOf(answer, shape);
  return {
    // Note: the core keeps the answer under the key in the command's own transaction, with the change it made.
    key: KEYED_COMMANDS.has(operationId as MerchantOperationId)
      ? { scope: operationId, print: (p) => command(p.params, p.query, p.body), keptBy: 'core' }
      : undefined,
    replay,
    async run({ tenant, params, query, body, hold, requestId }) {
      const plain = command(params, query, body);
      const keyed = hold ? { ...plain, idempotency_key: hold.key, request_id: requestId } : plain;
      const { answer, changed } = await runtime.store.transaction(tenant, (state) => {
        // Note: released in the command's own transaction, and execute takes the key again, so no request comes in between.
        hold?.releaseIn(state);
        const full = quotaRefusal(state, plain.type, runtime.quotas.objects);
        if (full) return { answer: full, changed: false };
        const { answer, events } = execute(state, keyed, runtime.now(state));
        // Note: what the command made due (a cancel's webhook) runs now; settle sends it without the answer waiting for receivers.
        runDue(state, runtime.now(state));
        return { answer, changed: events.length > 0 };
      });
      return { ...replay(answer), changed };
    },
  };
}

const KINDS = { createPayment: 'payments', createPayout: 'payouts', createAppeal: 'appeals' } as const;

/** 422 quota_exceeded for a create past the tenant's quota of objects of its kind; undefined otherwise. */
function quotaRefusal(state: TenantState, type: string, most: number): Answer | undefined {
  const kind = KINDS[type as keyof typeof KINDS];
  if (kind === undefined || state[kind].byId.size < most) return undefined;
  return failure(
    'quota_exceeded',
    `This tenant already has ${most} ${kind}, its quota of objects of a kind (${most}); no more can be created.`,
  );
}

function outcomeOf(answer: Answer, shape: Shape): Outcome {
  return answer.ok ? { status: answer.status, body: shape(answer.body) } : { problem: answer.problem };
}
