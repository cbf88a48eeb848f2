// One webhook delivery: its endpoint and state, every attempt (time, status or failure, duration), and "Redeliver".
import type { Delivery } from '@merchant-payments/contract/internal/sandbox-control/types.js';
import { describeError, Time } from '../feedback.js';
import { Table } from '../table.js';
import type { ViewProps } from '../view.js';

export function DeliveryCard({ clients, refresh, say, delivery }: ViewProps & { delivery: Delivery }) {
  const redeliver = async () => {
    const { error } = await clients.control.POST('/_sandbox/deliveries/{deliveryId}/redeliver', {
      params: { path: { deliveryId: delivery.id } },
    });
    if (error !== undefined) return say({ kind: 'error', text: describeError(error) });
    say({ kind: 'notice', text: `Redelivered ${delivery.id}: a new attempt was made.` });
    refresh();
  };
  return (
    <article class="delivery" aria-label={`Delivery ${delivery.id}`}>
      <p>
        Delivery <code>{delivery.id}</code> of event <code>{delivery.event_id}</code> to endpoint{' '}
        <code>{delivery.endpoint_id}</code> <span class={`tag ${delivery.state}`}>{delivery.state}</span>
        {delivery.next_attempt_at && (
          <>
            {' '}
            next attempt <Time value={delivery.next_attempt_at} />
          </>
        )}{' '}
        <button type="button" onClick={() => void redeliver()} aria-label={`Redeliver ${delivery.id}`}>
          Redeliver
        </button>
      </p>
      <Table
        caption={`Attempts of ${delivery.id}`}
        rows={delivery.attempts}
        keyOf={(attempt) => attempt.number}
        columns={[
          ['#', (attempt) => attempt.number],
          [
            'Sent',
            (attempt) => (
              <>
                <Time value={attempt.sent_at ?? attempt.due_at} />
                {attempt.sent_at ? '' : ' (due)'}
              </>
            ),
          ],
          ['Endpoint', () => <code>{delivery.endpoint_id}</code>],
          ['Outcome', (attempt) => <span class={`tag ${attempt.outcome}`}>{attempt.outcome}</span>],
          ['Answer', (attempt) => attempt.response_status ?? attempt.error ?? '—'],
          ['Duration', (attempt) => (attempt.duration_ms === undefined ? '—' : `${attempt.duration_ms} ms`)],
        ]}
      />
    </article>
  );
}
