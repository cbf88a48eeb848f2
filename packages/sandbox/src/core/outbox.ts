// The webhook outbox: endpoints, one delivery per event and endpoint, and when each attempt is due. Sending is the
// caller's job; it reports each attempt's outcome back, and the outbox schedules the next one.
import type { WebhookLayout } from '@merchant-payments/contract/internal/webhooks/types.js';
import { iso } from './clock.js';
import { retiring } from './event-log.js';
import { nextId } from './ids.js';
import { nextAttemptAt } from './retry-schedule.js';
import { nextSeq, type TenantHead, type TenantState } from './tenant.js';
import type { Delivery, DeliveryOutcome, DueAttempt, StatusChange, WebhookEndpoint } from './types.js';

/** Registers an endpoint; later events are delivered to it. */
export function addEndpoint(
  tenant: TenantHead,
  input: { url: string; secret?: string; layout?: WebhookLayout; listener?: { until: number } },
  now: number,
): WebhookEndpoint {
  const endpoint: WebhookEndpoint = {
    id: nextId(tenant.ids, 'we'),
    url: input.url,
    layout: input.layout ?? 'later',
    created_at: iso(now),
  };
  if (input.secret !== undefined) endpoint.secret = input.secret;
  if (input.listener !== undefined) endpoint.listener = { ...input.listener };
  tenant.endpoints.push(endpoint);
  return structuredClone(endpoint);
}

/** Removes an endpoint; deliveries already scheduled to it stay in the log but are not attempted again. */
export function removeEndpoint(tenant: TenantHead, id: string): boolean {
  const before = tenant.endpoints.length;
  tenant.endpoints = tenant.endpoints.filter((e) => e.id !== id);
  return tenant.endpoints.length < before;
}

function schedule(tenant: TenantState, delivery: Delivery, number: number, at: number): void {
  delivery.attempts.push({ number, due_at: iso(at) });
  delivery.state = 'scheduled';
  tenant.deliveries.set(delivery.id, delivery);
  tenant.timers.push({ at, seq: nextSeq(tenant), type: 'attempt', delivery: delivery.id, attempt: number });
}

/** Creates one delivery per endpoint for a status change, its first attempt due at once. */
export function enqueueDeliveries(tenant: TenantState, change: StatusChange, eventIndex: number, at: number): void {
  for (const endpoint of tenant.endpoints) {
    const delivery: Delivery = {
      id: nextId(tenant.ids, 'dlv'),
      event_id: change.event.id,
      endpoint_id: endpoint.id,
      state: 'scheduled',
      attempts: [],
      event_index: eventIndex,
      change,
    };
    schedule(tenant, delivery, 1, at);
  }
}

/** Marks an attempt whose timer fired as due; undefined when it no longer applies (endpoint gone, or superseded). */
export function fireAttempt(
  tenant: TenantState,
  deliveryId: string,
  attempt: number,
  at: number,
): DueAttempt | undefined {
  const delivery = tenant.deliveries.get(deliveryId);
  if (!delivery || delivery.state !== 'scheduled' || delivery.attempts.at(-1)?.number !== attempt) return undefined;
  if (!tenant.endpoints.some((e) => e.id === delivery.endpoint_id)) {
    // Note: the attempt was never made, so it leaves the log; the delivery ends as failed (redeliver can revive it).
    delivery.attempts.pop();
    delivery.state = 'failed';
    tenant.deliveries.set(deliveryId, delivery);
    return undefined;
  }
  delivery.state = 'due';
  tenant.deliveries.set(deliveryId, delivery);
  return { delivery_id: deliveryId, attempt, due_at: at };
}

/** Records how a due attempt went and schedules the next one, if the schedule has one left. */
export function recordAttempt(tenant: TenantState, due: DueAttempt, outcome: DeliveryOutcome, at: number): Delivery {
  if (!awaitsOutcome(tenant, due))
    throw new Error(`Delivery ${due.delivery_id} has no attempt ${due.attempt} waiting to be sent`);
  const delivery = tenant.deliveries.get(due.delivery_id)!;
  const attempt = delivery.attempts.at(-1)!;
  if (tenant.sending.length > 0) tenant.sending = tenant.sending.filter((s) => s.delivery_id !== due.delivery_id);
  attempt.sent_at = iso(at);
  attempt.outcome = { ...outcome };
  const next = outcome.ok ? undefined : nextAttemptAt(at, due.attempt + 1, tenant.retryCompression);
  if (next !== undefined && retiring(tenant, delivery)) {
    delivery.state = 'abandoned';
  } else if (next !== undefined) {
    schedule(tenant, delivery, due.attempt + 1, next);
  } else {
    delivery.state = outcome.ok ? 'delivered' : 'failed';
  }
  tenant.deliveries.set(delivery.id, delivery);
  return structuredClone(delivery);
}

/** Sends a delivery again now, outside its schedule (the control API's redeliver). */
export function redeliver(tenant: TenantState, deliveryId: string, now: number): Delivery | undefined {
  const delivery = tenant.deliveries.get(deliveryId);
  if (!delivery || delivery.state === 'due') return undefined;
  schedule(tenant, delivery, (delivery.attempts.at(-1)?.number ?? 0) + 1, now);
  return structuredClone(delivery);
}

/** The attempts that fell due and wait to be sent, oldest first; the outbox takes them all. */
export function takeDue(tenant: TenantState): DueAttempt[] {
  const due = tenant.due;
  tenant.due = [];
  return due;
}

/** Whether the attempt is still the one its delivery waits on; a late outcome of an attempt sent twice is not. */
export function awaitsOutcome(tenant: TenantState, due: DueAttempt): boolean {
  const delivery = tenant.deliveries.get(due.delivery_id);
  return delivery?.state === 'due' && delivery.attempts.at(-1)?.number === due.attempt;
}

/**
 * The attempts a sender takes now (at most `limit`), oldest first, each leased until `wallNow + leaseMs`: those waiting, and those taken before whose
 * lease ran out unrecorded (their sender died, or never answered), so that every attempt is sent at least once. Only
 * those `takes` accepts are taken (a listener's attempts, by the instance holding its connection); the others wait.
 */
export function leaseDue(
  tenant: TenantState,
  wallNow: number,
  leaseMs: number,
  limit = Infinity,
  takes: (due: DueAttempt) => boolean = () => true,
): DueAttempt[] {
  const live = tenant.sending.filter((s) => awaitsOutcome(tenant, s));
  const waiting = [...live.filter((s) => s.leased_until! <= wallNow), ...tenant.due].filter(takes);
  const taken = waiting.slice(0, limit).map((due) => ({ ...due, leased_until: wallNow + leaseMs }));
  const takenIds = new Set(taken.map((due) => due.delivery_id));
  tenant.due = tenant.due.filter((due) => !takenIds.has(due.delivery_id));
  tenant.sending = [...live.filter((s) => !takenIds.has(s.delivery_id)), ...taken];
  return taken.map((due) => ({ ...due }));
}

/**
 * Puts a taken attempt back, unsent, first in line (its listener's connection went before it could be sent or
 * answered), so that it is taken again as soon as the listener is held, rather than once its lease runs out.
 */
export function releaseAttempt(tenant: TenantState, due: DueAttempt): void {
  if (!awaitsOutcome(tenant, due)) return;
  tenant.sending = tenant.sending.filter((s) => s.delivery_id !== due.delivery_id);
  tenant.due = [{ delivery_id: due.delivery_id, attempt: due.attempt, due_at: due.due_at }, ...tenant.due];
}

/** What sending a due attempt needs: the delivery, its event and its endpoint. */
export function attemptContext(
  tenant: TenantState,
  due: DueAttempt,
): { delivery: Delivery; change: StatusChange; endpoint: WebhookEndpoint | undefined } {
  const delivery = tenant.deliveries.get(due.delivery_id)!;
  return { delivery, change: delivery.change, endpoint: tenant.endpoints.find((e) => e.id === delivery.endpoint_id) };
}
