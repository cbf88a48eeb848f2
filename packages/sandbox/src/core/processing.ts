// An object's own processing on the tenant's clock: the steps of its outcome, and its expiry at `expires_at`.
import { contribution, rebook } from './balance.js';
import { findRow } from '@merchant-payments/contract/internal/sandbox-model/lifecycle.js';
import { pathOf, STEP_DELAY_SECONDS, type Step } from '@merchant-payments/contract/internal/sandbox-model/outcomes.js';
import { collectionOf, nextSeq, type TenantState } from './tenant.js';
import type { Timer } from './timers.js';
import { deepFreeze } from './freeze.js';
import { commitTransition, prepareTransition } from './transition.js';
import type { ObjectKind, RecordOf, RequestOf, StatusChange } from './types.js';

const planKey = (kind: ObjectKind, id: string) => `${kind}:${id}`;

function scheduleStep(tenant: TenantState, kind: ObjectKind, id: string, step: Step, from: number): void {
  const at = from + (STEP_DELAY_SECONDS[kind][step.to] ?? 0) * 1000;
  tenant.timers.push({ at, seq: nextSeq(tenant), type: 'step', kind, id, step });
}

/** Stores a new object and starts its processing along `outcome`; creating emits no event (nothing changed status). */
export function startLifecycle<K extends ObjectKind>(
  tenant: TenantState,
  kind: K,
  record: RecordOf[K],
  request: RequestOf[K],
  outcome: string,
  at: number,
): void {
  collectionOf(tenant, kind).insert(deepFreeze(record), deepFreeze(request));
  rebook(tenant, undefined, contribution(kind, record));
  const steps = [...pathOf(kind, outcome)];
  if (steps.length > 0) {
    tenant.plans.set(planKey(kind, record.id), steps);
    scheduleStep(tenant, kind, record.id, steps[0]!, at);
  }
  if ('expires_at' in record) {
    tenant.timers.push({
      at: Date.parse(record.expires_at),
      seq: nextSeq(tenant),
      type: 'expiry',
      kind,
      id: record.id,
    });
  }
}

/** Takes the next step of an object's plan, if the contract's table still allows it from where the object is. */
export function runStep(tenant: TenantState, timer: Extract<Timer, { type: 'step' }>): StatusChange | undefined {
  const key = planKey(timer.kind, timer.id);
  const plan = tenant.plans.get(key);
  // Note: compared by value, not identity, so that a plan still matches its timer after a snapshot is restored.
  const next = plan?.[0];
  if (!plan || next?.to !== timer.step.to || next.reason_code !== timer.step.reason_code) return undefined;
  const record = collectionOf(tenant, timer.kind).get(timer.id)!;
  const row = findRow(timer.kind, record.status, {
    to: timer.step.to,
    trigger: 'clock:processing',
    reason_code: timer.step.reason_code,
  });
  if (!row) {
    tenant.plans.delete(key);
    return undefined;
  }
  const rest = plan.slice(1);
  const change = commitTransition(
    tenant,
    prepareTransition(tenant, timer.kind, record, row.to, row.reason_code, timer.at),
    'clock:processing',
    timer.at,
  );
  if (rest.length > 0) {
    tenant.plans.set(key, rest);
    scheduleStep(tenant, timer.kind, timer.id, rest[0]!, timer.at);
  } else {
    tenant.plans.delete(key);
  }
  return change;
}

/** Expires an object whose `expires_at` came, if the contract's table lets it expire from where it is. */
export function runExpiry(tenant: TenantState, timer: Extract<Timer, { type: 'expiry' }>): StatusChange | undefined {
  const record = collectionOf(tenant, timer.kind).get(timer.id)!;
  const row = findRow(timer.kind, record.status, { trigger: 'clock:expires_at' });
  if (!row) return undefined;
  return commitTransition(
    tenant,
    prepareTransition(tenant, timer.kind, record, row.to, row.reason_code, timer.at),
    'clock:expires_at',
    timer.at,
  );
}
