// The tenant's clock (retrieveClock, advanceClock) and resetting the tenant (resetTenant).
import { iso, type TenantState } from '../core/index.js';
import type { SandboxRuntime } from '../runtime.js';
import type { ControlOperation } from './handler.js';
import { dataReply, noContent } from './reply.js';

const clockOf = (runtime: SandboxRuntime, tenant: string) =>
  runtime.store.transaction(tenant, (state: TenantState) => ({ now: iso(runtime.now(state)), mode: state.clock.mode }));

/** GET /_sandbox/clock. */
export const retrieveClock = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'retrieveClock',
  run: async ({ tenant }) => dataReply(await clockOf(runtime, tenant)),
});

/** POST /_sandbox/clock/advance: everything that falls due runs, and its deliveries are made, before this answers. */
export const advanceClock = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'advanceClock',
  idempotency: 'record',
  async run({ tenant, body }) {
    const { seconds } = body as { seconds: number };
    const advanced = await runtime.advance(tenant, seconds);
    const data = {
      ...(await clockOf(runtime, tenant)),
      advanced_by: seconds,
      transitions: advanced.transitions.length,
      delivery_attempts: advanced.deliveryAttempts,
    };
    return dataReply(data);
  },
});

/**
 * POST /_sandbox/reset: the tenant as new (its clock at the start in the same mode, ids from the seed again, no
 * faults), and the state file saved without it. Its own Idempotency-Key is not kept: the reset clears every key.
 */
export const resetTenant = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'resetTenant',
  idempotency: 'check',
  async run({ tenant }) {
    await runtime.reset(tenant);
    return noContent();
  },
});
