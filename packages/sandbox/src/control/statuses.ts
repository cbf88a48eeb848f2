// Forcing a payment, payout or appeal into another status (forcePaymentStatus, forcePayoutStatus, forceAppealStatus):
// only the transitions the contract's lifecycle table lists from the object's status, as the core decides.
import { REASON_CODES } from '@merchant-payments/contract/generated/sandbox/lifecycles.js';
import { execute, runDue, type ObjectKind } from '../core/index.js';
import type { SandboxRuntime } from '../runtime.js';
import type { ControlOperation } from './handler.js';
import { dataReply } from './reply.js';
import { statusChangeView } from './views.js';
import { WRITES } from '../stores/types.js';

const OPERATIONS = { payment: 'forcePaymentStatus', payout: 'forcePayoutStatus', appeal: 'forceAppealStatus' } as const;
const PARAMS = { payment: 'paymentId', payout: 'payoutId', appeal: 'appealId' } as const;

/** POST /_sandbox/{payments,payouts,appeals}/{id}/status: 200 with the status change, 404, or 422 from the core. */
export function forceStatus(runtime: SandboxRuntime, kind: ObjectKind): ControlOperation {
  return {
    operationId: OPERATIONS[kind],
    idempotency: 'record',
    async run({ tenant, params, body }) {
      const { status, reason_code } = body as { status: string; reason_code?: (typeof REASON_CODES)[number] };
      const id = params[PARAMS[kind]]!;
      const command = {
        type: 'forceStatus',
        kind,
        id,
        status,
        ...(reason_code === undefined ? {} : { reason_code }),
      } as const;
      const ran = await runtime.store.transaction(
        tenant,
        (state) => {
          const { answer, events } = execute(state, command, runtime.now(state));
          runDue(state, runtime.now(state));
          return {
            sends: state.due.length > 0,
            reply: answer.ok ? dataReply(statusChangeView(events.at(-1)!)) : { problem: answer.problem },
          };
        },
        undefined,
        WRITES,
      );
      // Note: what fell due before the command ran, and the forced change itself, are delivered as after any request.
      if (ran.sends) runtime.settle(tenant);
      return ran.reply;
    },
  };
}
