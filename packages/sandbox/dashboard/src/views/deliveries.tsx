// Every webhook delivery of the tenant, the newest event first: a state filter, pages, and "Redeliver" on each.
import type { DeliveryState } from '@merchant-payments/contract/internal/sandbox-control/types.js';
import { describeError } from '../feedback.js';
import { answerOf, useLoad } from '../load.js';
import { href } from '../route.js';
import type { ViewProps } from '../shell.js';
import { DeliveryCard } from './delivery.js';

const LIMIT = 20;
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
          params: { query: { limit: LIMIT, offset, ...(state ? { state } : {}) } },
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
      <form class="inline" onSubmit={(e) => e.preventDefault()}>
        <label for="state-filter">State</label>
        <select id="state-filter" value={state ?? ''} onChange={(e) => go({ state: e.currentTarget.value, offset: 0 })}>
          <option value="">any</option>
          {STATES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </form>
      {page.state === 'loading' && <p role="status">Loading deliveries…</p>}
      {page.state === 'failed' && (
        <p class="error" role="alert">
          {describeError(page.error)}
        </p>
      )}
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
          <nav class="pager" aria-label="Pages of deliveries">
            <button type="button" disabled={offset === 0} onClick={() => go({ offset: Math.max(0, offset - LIMIT) })}>
              Newer
            </button>
            <button
              type="button"
              disabled={offset + LIMIT >= page.data.pagination.total}
              onClick={() => go({ offset: offset + LIMIT })}
            >
              Older
            </button>
          </nav>
        </>
      )}
    </section>
  );
}
