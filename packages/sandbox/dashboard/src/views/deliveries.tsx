// Every webhook delivery of the tenant, the newest event first: a state filter, pages, and "Redeliver" on each.
import type { DeliveryState } from '@merchant-payments/contract/internal/sandbox-control/types.js';
import { answerOf, useLoad } from '../load.js';
import { href } from '../route.js';
import type { ViewProps } from '../view.js';
import { DeliveryCard } from './delivery.js';
import { Filter, LoadState, PAGE_SIZE, Pager } from './paging.js';

const STATES: readonly DeliveryState[] = ['scheduled', 'due', 'delivered', 'failed', 'abandoned'];

export function Deliveries(props: ViewProps & { query: URLSearchParams }) {
  const { clients, version, query } = props;
  const state = (STATES as readonly string[]).includes(query.get('state') ?? '')
    ? (query.get('state') as DeliveryState)
    : undefined;
  const offset = Math.max(0, Number(query.get('offset')) || 0);
  const page = useLoad(
    () =>
      answerOf(
        clients.control.GET('/_sandbox/deliveries', {
          params: { query: { limit: PAGE_SIZE, offset, ...(state ? { state } : {}) } },
        }),
        (d) => d,
      ),
    [clients, version, state, offset],
  );
  const go = (to: { state?: string; offset?: number }) => {
    location.hash = href('deliveries', { state: to.state ?? state, offset: to.offset || undefined });
  };
  return (
    <section aria-labelledby="deliveries-title">
      <h1 id="deliveries-title">Deliveries</h1>
      <Filter
        id="state-filter"
        label="State"
        value={state ?? ''}
        values={STATES}
        onPick={(picked) => go({ state: picked, offset: 0 })}
      />
      <LoadState loaded={page} what="deliveries" />
      {page.state === 'done' && (
        <>
          <p>
            {page.data.pagination.total === 0
              ? 'No deliveries yet: add a webhook endpoint, then make a payment and advance the clock.'
              : `Deliveries ${offset + 1}–${offset + page.data.data.length} of ${page.data.pagination.total}`}
          </p>
          {page.data.data.map((delivery) => (
            <DeliveryCard key={delivery.id} {...props} delivery={delivery} />
          ))}
          <Pager what="deliveries" offset={offset} total={page.data.pagination.total} go={(to) => go({ offset: to })} />
        </>
      )}
    </section>
  );
}
