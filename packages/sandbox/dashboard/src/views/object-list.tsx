// A list of payments, payouts or appeals: a status filter, pages of 20, each row linking to its object's page.
import { statusesOf } from '@merchant-payments/contract/internal/sandbox-model/lifecycle.js';
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import { Time } from '../feedback.js';
import { useLoad } from '../load.js';
import { listObjects, PLURAL, type ObjectFields } from '../objects.js';
import { href } from '../route.js';
import { Table } from '../table.js';
import type { ViewProps } from '../view.js';
import { Filter, LoadState, PAGE_SIZE, Pager } from './paging.js';

/** An amount as the API shows it: `"42.50"` with a currency beside it, or `{ amount, currency }` (a payment's `requested`). */
export function amountOf(fields: ObjectFields): string {
  const { currency } = fields;
  const amount = fields.amount ?? fields.requested;
  if (typeof amount === 'string') return `${amount} ${typeof currency === 'string' ? currency : ''}`.trim();
  if (typeof amount === 'object' && amount !== null) {
    const money = amount as { amount?: unknown; currency?: unknown };
    if (typeof money.amount === 'string')
      return `${money.amount} ${typeof money.currency === 'string' ? money.currency : ''}`.trim();
  }
  return '—';
}

export function ObjectList({
  clients,
  version,
  kind,
  query,
}: ViewProps & { kind: ObjectKind; query: URLSearchParams }) {
  const plural = PLURAL[kind];
  const status = query.get('status') ?? '';
  const offset = Math.max(0, Number(query.get('offset')) || 0);
  const page = useLoad(
    () => listObjects(clients, kind, { status: status || undefined, limit: PAGE_SIZE, offset }),
    [clients, version, kind, status, offset],
  );
  const title = plural[0]!.toUpperCase() + plural.slice(1);
  const go = (to: { status?: string; offset?: number }) => {
    location.hash = href(plural, { status: to.status ?? status, offset: to.offset || undefined });
  };
  return (
    <section aria-labelledby="list-title">
      <h1 id="list-title">{title}</h1>
      <Filter
        id="status-filter"
        label="Status"
        value={status}
        values={statusesOf(kind)}
        onPick={(picked) => go({ status: picked, offset: 0 })}
      />
      <LoadState loaded={page} what={plural} />
      {page.state === 'done' && (
        <>
          <Table
            caption={
              page.data.pagination.total === 0
                ? `No ${plural}${status ? ` in status ${status}` : ''} yet.`
                : `${title} ${offset + 1}–${offset + page.data.data.length} of ${page.data.pagination.total}, newest first`
            }
            rows={page.data.data}
            keyOf={(item) => item.id}
            columns={[
              ['Id', (item) => <a href={href(`${plural}/${encodeURIComponent(item.id)}`)}>{item.id}</a>],
              ['Status', (item) => <span class="tag">{item.status}</span>],
              ['Amount', amountOf],
              ['Created', (item) => <Time value={item.created_at} />],
            ]}
          />
          <Pager what={plural} offset={offset} total={page.data.pagination.total} go={(to) => go({ offset: to })} />
        </>
      )}
    </section>
  );
}
