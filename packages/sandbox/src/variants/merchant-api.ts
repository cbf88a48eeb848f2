// A variant's operations on the request pipeline: its credentials and the runtime's (pluggable) contract checks as
// the binding, and each operation's work as the core command it runs in one store transaction (its Idempotency-Key
// looked up and its answer kept in the same one), answered in its shape.
import {
  execute,
  failure,
  KEYED_COMMANDS,
  namedBy,
  runDue,
  type Answer,
  type Command,
  type TenantState,
} from '../core/index.js';
import { parametersFit } from '@merchant-payments/contract/internal/validation/index.js';
import type { OperationWork, ApiBinding, Outcome } from '../http/pipeline.js';
import { merchantTenantLimit } from '../http/tenant-limit.js';
import type { SandboxRuntime } from '../runtime.js';
import { COMMANDS, type MerchantOperationId, type Shape, type VariantAdapter } from './operation.js';
import { WRITES } from '../stores/types.js';

/** The binding of a variant: its credentials, faults, and the runtime's validators. */
export function variantBinding(variant: VariantAdapter, runtime: SandboxRuntime): ApiBinding {
  return {
    ref: ({ operationId, method, path }) => ({
      variant: variant.name,
      operationId,
      method: method as 'GET' | 'POST',
      path,
    }),
    authenticate: (headers, session) => variant.authenticate(headers, runtime.credentials, session),
    merchantBefore: (headers) => variant.merchantBefore?.(headers, runtime.credentials),
    unauthorized: (_headers, detail) => ({ detail, headers: variant.challenge }),
    intercepted: true,
    throttled: true,
    async checkRequest(operation, { params, query, headers, body }) {
      const rejection = await runtime.validators.request?.({ operation, pathParams: params, query, headers, body });
      return rejection ? { rejection } : { values: {} };
    },
    checkResponse: (operation, status, headers, body) =>
      runtime.validators.response?.({ operation, status, headers, body }),
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
    key: KEYED_COMMANDS.has(operationId as MerchantOperationId)
      ? { scope: operationId, print: (p) => command(p.params, p.query, p.body), keptBy: 'core' }
      : undefined,
    replay,
    reads: ({ params, query, headers }) => {
      // Note: nothing is read ahead for a path or query the contract refuses (a NUL byte in an id, an offset past its
      // maximum), so that such a request reaches its 422 without a statement; the check itself comes after 401 and faults.
      if (!parametersFit(variant.index, operationId, { params, query })) return undefined;
      const key = headers.get('idempotency-key');
      const named = command(params, query, undefined);
      return namedBy(
        key === null || !KEYED_COMMANDS.has(named.type) ? named : ({ ...named, idempotency_key: key } as Command),
      );
    },
    async run({ tenant, params, query, body, key, requestId, session }) {
      const plain = command(params, query, body);
      const keyed = key === undefined ? plain : { ...plain, idempotency_key: key, request_id: requestId };
      const { answer, sends } = await runtime.store.transaction(
        tenant,
        (state) => {
          const full = quotaRefusal(state, plain.type, runtime.quotas.objects);
          if (full) return { answer: full, sends: false };
          const { answer } = execute(state, keyed, runtime.now(state), runtime.wallNow());
          // Note: what the command made due (a cancel's webhook) is taken off its timer here and sent after the commit.
          runDue(state, runtime.now(state));
          return { answer, sends: state.due.length > 0 };
        },
        session,
        KEYED_COMMANDS.has(plain.type) ? WRITES : undefined,
      );
      // Note: the answer does not wait for receivers; with nothing due, no transaction is spent looking.
      if (sends) runtime.settle(tenant);
      return { ...replay(answer), replayed: answer.replayed === true };
    },
  };
}

const KINDS = { createPayment: 'payments', createPayout: 'payouts', createAppeal: 'appeals' } as const;

/** 422 quota_exceeded for a create past the tenant's quota of objects of its kind; undefined otherwise. */
function quotaRefusal(state: TenantState, type: string, most: number): Answer | undefined {
  const kind = KINDS[type as keyof typeof KINDS];
  if (kind === undefined || state[kind].count() < most) return undefined;
  return failure(
    'quota_exceeded',
    `This tenant already has ${most} ${kind}, its quota of objects of a kind (${most}); no more can be created.`,
  );
}

function outcomeOf(answer: Answer, shape: Shape): Outcome {
  return answer.ok ? { status: answer.status, body: shape(answer.body) } : { problem: answer.problem };
}
