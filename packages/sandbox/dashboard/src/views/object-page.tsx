// An object's page: its fields, its status history from the event log, and each event's webhook deliveries.
import type { StatusChange } from '@merchant-payments/contract/internal/sandbox-control/types.js';
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import { describeError, Time } from '../feedback.js';
import { answerOf, useLoad } from '../load.js';
import { PLURAL, retrieveObject } from '../objects.js';
import { href } from '../route.js';
import type { ViewProps } from '../view.js';
import { DeliveryCard } from './delivery.js';

/** A field as a person reads it: money as amount and currency, other objects as compact JSON, the rest as text. */
function FieldValue({ value }: { value: unknown }) {
  if (typeof value !== 'object' || value === null) return <>{String(value)}</>;
  const money = value as { amount?: unknown; currency?: unknown };
  if (Object.keys(value).length === 2 && typeof money.amount === 'string' && typeof money.currency === 'string')
    return (
      <>
        {money.amount} {money.currency}
      </>
    );
  return <code>{JSON.stringify(value)}</code>;
}

function EventDeliveries(props: ViewProps & { change: StatusChange }) {
  const { clients, version, change } = props;
  const deliveries = useLoad(
    () =>
      answerOf(
        clients.control.GET('/_sandbox/deliveries', { params: { query: { event_id: change.event.id, limit: 100 } } }),
        (d) => d.data,
      ),
    [clients, version, change.event.id],
  );
  if (deliveries.state === 'loading') return <p>Loading its deliveries…</p>;
  if (deliveries.state === 'failed') return <p class="error">{describeError(deliveries.error)}</p>;
  if (deliveries.data.length === 0) return <p>No webhook endpoint received this event.</p>;
  return (
    <>
      {deliveries.data.map((delivery) => (
        <DeliveryCard key={delivery.id} {...props} delivery={delivery} />
      ))}
    </>
  );
}

export function ObjectPage(props: ViewProps & { kind: ObjectKind; id: string }) {
  const { clients, version, kind, id } = props;
  const object = useLoad(() => retrieveObject(clients, kind, id), [clients, version, kind, id]);
  const history = useLoad(
    () =>
      answerOf(
        clients.control.GET('/_sandbox/events', { params: { query: { object_id: id, limit: 100 } } }),
        (d) => d.data,
      ),
    [clients, version, id],
  );
  return (
    <section aria-labelledby="object-title">
      <p>
        <a href={href(PLURAL[kind])}>← All {PLURAL[kind]}</a>
      </p>
      <h1 id="object-title">
        {kind[0]!.toUpperCase() + kind.slice(1)} <code>{id}</code>
      </h1>
      {object.state === 'failed' && (
        <p class="error" role="alert">
          {describeError(object.error)}
        </p>
      )}
      {object.state === 'done' && (
        <dl class="fields" aria-label="Fields">
          {Object.entries(object.data).map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>
                <FieldValue value={value} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      <h2>Status history</h2>
      {history.state === 'failed' && <p class="error">{describeError(history.error)}</p>}
      {history.state === 'done' && history.data.length === 0 && <p>No status change yet.</p>}
      {history.state === 'done' &&
        history.data.map((change) => (
          <section key={change.event.id} class="event" aria-label={`Event ${change.event.id}`}>
            <h3>
              <span class="tag">{change.from}</span> → <span class="tag">{change.to}</span>{' '}
              <small>
                {change.trigger} · <Time value={change.event.created_at} /> · event <code>{change.event.id}</code>
              </small>
            </h3>
            <EventDeliveries {...props} change={change} />
          </section>
        ))}
    </section>
  );
}
