// Running a tenant's clock: everything due up to an instant runs in time order (then in the order it was
// scheduled): processing steps, expiries and webhook delivery attempts.
import { clockNow, moveClock } from './clock.js';
import { fireAttempt, recordAttempt, takeDue } from './outbox.js';
import { runExpiry, runStep } from './processing.js';
import type { TenantState } from './tenant.js';
import type { DeliveryOutcome, DueAttempt, StatusChange } from './types.js';

/** Sends one due attempt at once and says how it went; without one, due attempts wait in `tenant.due`. */
export type DeliverNow = (due: DueAttempt, tenant: TenantState) => DeliveryOutcome;

const running = new WeakSet<TenantState>();

/** Runs everything due up to `until` (ms) and returns the status changes, in order. */
export function runDue(tenant: TenantState, until: number, deliver?: DeliverNow): StatusChange[] {
  // Note: a sender that called back into the same tenant would run later timers inside an earlier one.
  if (running.has(tenant))
    throw new Error(`Tenant ${tenant.id}'s clock is already running; a sender must not call back into it`);
  running.add(tenant);
  try {
    return runTimers(tenant, until, deliver);
  } finally {
    running.delete(tenant);
  }
}

function runTimers(tenant: TenantState, until: number, deliver: DeliverNow | undefined): StatusChange[] {
  const changes: StatusChange[] = [];
  // Note: attempts that fell due while a command ran (which has no sender) are sent first, or they would wait forever.
  if (deliver) for (const due of takeDue(tenant)) recordAttempt(tenant, due, deliver(due, tenant), tenant.time);
  for (let timer = tenant.timers.due(until); timer; timer = tenant.timers.due(until)) {
    tenant.timers.remove(timer);
    tenant.time = Math.max(tenant.time, timer.at);
    if (timer.type === 'attempt') {
      const due = fireAttempt(tenant, timer.delivery, timer.attempt, tenant.time);
      if (due && deliver) recordAttempt(tenant, due, deliver(due, tenant), tenant.time);
      else if (due) tenant.due.push(due);
      continue;
    }
    const change = timer.type === 'step' ? runStep(tenant, timer) : runExpiry(tenant, timer);
    if (change) changes.push(change);
  }
  tenant.time = Math.max(tenant.time, until);
  tenant.idempotency.sweep(tenant.time);
  return changes;
}

/** Whether anything is due on the tenant at `now` (ms): a timer, an attempt waiting to be sent, or one whose lease ran out at `wallNow`. */
export function hasDueWork(tenant: TenantState, now: number, wallNow: number): boolean {
  return (
    tenant.due.length > 0 ||
    (tenant.timers.earliest() ?? Infinity) <= now ||
    tenant.sending.some((s) => s.leased_until! <= wallNow)
  );
}

/** Moves the tenant's clock forward by `seconds` and runs everything that fell due on the way. */
export function advance(tenant: TenantState, seconds: number, wallNow: number, deliver?: DeliverNow): StatusChange[] {
  moveClock(tenant.clock, seconds * 1000);
  return runDue(tenant, clockNow(tenant.clock, wallNow), deliver);
}
