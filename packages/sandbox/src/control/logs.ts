// The tenant's event log (listEvents) and delivery log (listDeliveries, redeliverDelivery).
import { droppedByRetention, redeliver, runDue, type Delivery } from '../core/index.js';
import type { SandboxRuntime } from '../runtime.js';
import type { ControlOperation } from './handler.js';
import { dataReply, pageReply, problemReply } from './reply.js';
import { deliveryView, statusChangeView } from './views.js';

/** The attempts one delivery may have (DeliveryAttempt.number); a redelivery past them is refused. */
export const MAX_ATTEMPTS = 100;

/** The states of a delivery (DeliveryState). */
export const DELIVERY_STATES = [
  'scheduled',
  'due',
  'delivered',
  'failed',
  'abandoned',
] as const satisfies readonly Delivery['state'][];

/** GET /_sandbox/events: newest first, optionally one object's only. */
export const listEvents = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'listEvents',
  run({ tenant, query }) {
    const { object_id: objectId } = query;
    const limit = query.limit as number;
    const offset = query.offset as number;
    return runtime.store.transaction(tenant, (state) => {
      const { items, total } = state.events.page({ objectId: objectId as string | undefined, limit, offset });
      return pageReply(items.map(statusChangeView), { total, limit, offset });
    });
  },
});

/** GET /_sandbox/deliveries: the newest event first, optionally one event's or one state's only. */
export const listDeliveries = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'listDeliveries',
  run({ tenant, query }) {
    const { event_id: eventId, state: wanted } = query;
    const limit = query.limit as number;
    const offset = query.offset as number;
    return runtime.store.transaction(tenant, (state) => {
      const { items, total } = state.deliveries.page({
        eventId: eventId as string | undefined,
        state: wanted as Delivery['state'] | undefined,
        limit,
        offset,
      });
      return pageReply(items.map(deliveryView), { total, limit, offset });
    });
  },
});

/** POST /_sandbox/deliveries/{deliveryId}/redeliver: a new attempt, due now; it is sent after this answers. */
export const redeliverDelivery = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'redeliverDelivery',
  idempotency: 'record',
  async run({ tenant, params }) {
    const reply = await runtime.store.transaction(tenant, (state) => {
      const delivery = state.deliveries.get(params.deliveryId!);
      if (!delivery && droppedByRetention(state, params.deliveryId!)) {
        return problemReply(
          'not_found',
          `Delivery ${params.deliveryId} was dropped by the event-log retention: this tenant's log keeps its latest ${state.eventLogLimit} events ` +
            `and drops older ones with their deliveries (${state.eventsDropped} dropped so far).`,
        );
      }
      if (!delivery)
        return problemReply('not_found', `No delivery with id ${params.deliveryId} exists for this tenant.`);
      if (delivery.state === 'due')
        return problemReply(
          'invalid_state',
          'An attempt of this delivery is being sent; redeliver it once that attempt has an outcome.',
        );
      if (delivery.attempts.length >= MAX_ATTEMPTS)
        return problemReply(
          'limit_reached',
          `This delivery has had ${MAX_ATTEMPTS} attempts, as many as the log keeps.`,
        );
      const scheduled = redeliver(state, delivery.id, runtime.now(state))!;
      // Note: the attempt now due is taken off its timer here, and settle sends it without waiting, as after any request.
      runDue(state, runtime.now(state));
      return dataReply(deliveryView(scheduled));
    });
    if (!('problem' in reply)) runtime.settle(tenant);
    return reply;
  },
});
