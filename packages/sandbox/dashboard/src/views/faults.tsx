// The tenant's faults: add one (which operation fails, how, how many times), list them, clear them all.
import type { CreateFaultRequest } from '@merchant-payments/contract/internal/sandbox-control/types.js';
import { FAULT_KINDS, FAULT_OPERATIONS } from '@merchant-payments/contract/internal/sandbox-model/faults.js';
import { useState } from 'preact/hooks';
import { describeError, fieldOf, Time } from '../feedback.js';
import { answerOf, useLoad } from '../load.js';
import { Options, Table } from '../table.js';
import type { ViewProps } from '../view.js';

export function Faults({ clients, version, refresh, say }: ViewProps) {
  const list = useLoad(() => answerOf(clients.control.GET('/_sandbox/faults'), (d) => d.data), [clients, version]);
  const [kind, setKind] = useState<CreateFaultRequest['kind']>('server_error');
  const add = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const count = Number(fieldOf(form, 'count'));
    const retryAfter = fieldOf(form, 'retry_after');
    const body: CreateFaultRequest = {
      operation_id: fieldOf(form, 'operation_id') as CreateFaultRequest['operation_id'],
      kind,
      count,
      ...(kind === 'rate_limit' && retryAfter !== '' ? { retry_after: Number(retryAfter) } : {}),
    };
    const { data, error } = await clients.control.POST('/_sandbox/faults', { body });
    if (error !== undefined || !data) return say({ kind: 'error', text: describeError(error) });
    say({
      kind: 'notice',
      text: `Added fault ${data.data.id}: the next ${data.data.count} ${data.data.operation_id} call(s) fail with ${data.data.kind}.`,
    });
    refresh();
  };
  const clear = async () => {
    const { error } = await clients.control.DELETE('/_sandbox/faults');
    if (error !== undefined) return say({ kind: 'error', text: describeError(error) });
    say({ kind: 'notice', text: 'Cleared every fault.' });
    refresh();
  };
  return (
    <section aria-labelledby="faults-title">
      <h1 id="faults-title">Faults</h1>
      <form class="card" onSubmit={(e) => void add(e)} aria-label="Add a fault">
        <p class="field">
          <label for="fault-operation">Operation</label>
          <select id="fault-operation" name="operation_id">
            <Options values={FAULT_OPERATIONS} />
          </select>
        </p>
        <p class="field">
          <label for="fault-kind">Kind</label>
          <select
            id="fault-kind"
            name="kind"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as typeof kind)}
          >
            <Options values={FAULT_KINDS} />
          </select>
        </p>
        <p class="field">
          <label for="fault-count">Count</label>
          <input id="fault-count" name="count" type="number" min={1} max={100} defaultValue="1" required />
        </p>
        {kind === 'rate_limit' && (
          <p class="field">
            <label for="fault-retry-after">Retry-After (seconds)</label>
            <input id="fault-retry-after" name="retry_after" type="number" min={0} max={3600} />
          </p>
        )}
        <button type="submit">Add fault</button>
      </form>
      {list.state === 'failed' && <p class="error">{describeError(list.error)}</p>}
      {list.state === 'done' && (
        <>
          <Table
            caption={
              list.data.length === 0 ? 'No faults waiting.' : `${list.data.length} fault(s), in the order they apply`
            }
            rows={list.data}
            keyOf={(fault) => fault.id}
            columns={[
              ['Id', (fault) => <code>{fault.id}</code>],
              ['Operation', (fault) => fault.operation_id],
              ['Kind', (fault) => fault.kind],
              ['Remaining', (fault) => `${fault.remaining} of ${fault.count}`],
              ['Retry-After', (fault) => fault.retry_after ?? '—'],
              ['Created', (fault) => <Time value={fault.created_at} />],
            ]}
          />
          <button type="button" onClick={() => void clear()} disabled={list.data.length === 0}>
            Clear faults
          </button>
        </>
      )}
    </section>
  );
}
