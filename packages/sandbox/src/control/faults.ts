// The tenant's faults (createFault, listFaults, deleteFaults); fault-intercept.ts makes them fail requests.
import { FAULT_KINDS, FAULT_OPERATIONS } from '@merchant-payments/contract/internal/sandbox-model/faults.js';
import { iso } from '../core/index.js';
import { nextId } from '../core/ids.js';
import type { SandboxRuntime } from '../runtime.js';
import { addFault, MAX_FAULTS, type Fault } from './fault-book.js';
import type { ControlOperation } from './handler.js';
import { dataReply, noContent, problemReply } from './reply.js';

export { FAULT_KINDS, FAULT_OPERATIONS };

/** POST /_sandbox/faults: 201 with the fault; 422 limit_reached past MAX_FAULTS. */
export const createFault = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'createFault',
  // Note: the document says this with `not`, whose violation could only name the whole body.
  refine: (body) =>
    body.retry_after !== undefined && body.kind !== 'rate_limit'
      ? [{ pointer: '/retry_after', detail: 'Only a rate_limit fault takes retry_after.' }]
      : [],
  idempotency: 'record',
  async run({ tenant, body }) {
    const input = body as {
      operation_id: Fault['operation_id'];
      kind: Fault['kind'];
      count?: number;
      retry_after?: number;
    };
    const count = input.count ?? 1;
    return runtime.store.transaction(tenant, (state) => {
      if (state.faults.length >= MAX_FAULTS)
        return problemReply(
          'limit_reached',
          `This tenant already has ${MAX_FAULTS} faults waiting; delete them first.`,
        );
      const fault: Fault = {
        id: nextId(state.ids, 'flt'),
        operation_id: input.operation_id,
        kind: input.kind,
        count,
        remaining: count,
        retry_after: input.kind === 'rate_limit' ? (input.retry_after ?? 1) : null,
        created_at: iso(runtime.now(state)),
      };
      addFault(state, fault);
      return dataReply(fault, 201);
    });
  },
});

/** GET /_sandbox/faults: oldest first, the order they apply in. */
export const listFaults = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'listFaults',
  run: ({ tenant }) =>
    runtime.store.transaction(tenant, (state) => dataReply(state.faults.map((fault) => ({ ...fault })))),
});

/** DELETE /_sandbox/faults. */
export const deleteFaults = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'deleteFaults',
  idempotency: 'record',
  async run({ tenant }) {
    await runtime.store.transaction(tenant, (state) => void (state.faults = []));
    return noContent();
  },
});
