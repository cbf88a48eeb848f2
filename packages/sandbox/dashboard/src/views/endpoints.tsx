// The tenant's webhook endpoints: add one (its generated secret shown once), remove one.
import type { WebhookLayout } from '@merchant-payments/contract/internal/sandbox-control/types.js';
import { useState } from 'preact/hooks';
import { describeError, fieldOf, Time } from '../feedback.js';
import { answerOf, useLoad } from '../load.js';
import { Table } from '../table.js';
import type { ViewProps } from '../view.js';

export function Endpoints({ clients, version, refresh, say }: ViewProps) {
  const list = useLoad(
    () => answerOf(clients.control.GET('/_sandbox/webhook-endpoints'), (d) => d.data),
    [clients, version],
  );
  const [secret, setSecret] = useState<{ id: string; secret: string }>();
  const add = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const url = fieldOf(form, 'url');
    const layout = fieldOf(form, 'layout') as WebhookLayout;
    const { data, error } = await clients.control.POST('/_sandbox/webhook-endpoints', { body: { url, layout } });
    if (error !== undefined || !data) return say({ kind: 'error', text: describeError(error) });
    setSecret(data.data.secret ? { id: data.data.id, secret: data.data.secret } : undefined);
    say({ kind: 'notice', text: `Added endpoint ${data.data.id}.` });
    (event.target as HTMLFormElement).reset();
    refresh();
  };
  const remove = async (endpointId: string) => {
    const { error } = await clients.control.DELETE('/_sandbox/webhook-endpoints/{endpointId}', {
      params: { path: { endpointId } },
    });
    if (error !== undefined) return say({ kind: 'error', text: describeError(error) });
    if (secret?.id === endpointId) setSecret(undefined);
    say({ kind: 'notice', text: `Removed endpoint ${endpointId}.` });
    refresh();
  };
  return (
    <section aria-labelledby="endpoints-title">
      <h1 id="endpoints-title">Webhook endpoints</h1>
      <form class="card" onSubmit={(e) => void add(e)} aria-label="Add an endpoint">
        <p class="field">
          <label for="endpoint-url">Endpoint URL</label>
          <input
            id="endpoint-url"
            name="url"
            type="url"
            required
            placeholder="http://127.0.0.1:3000/webhooks"
            size={40}
          />
        </p>
        <p class="field">
          <label for="endpoint-layout">Layout</label>
          <select id="endpoint-layout" name="layout">
            <option value="later">later (onStatusChange)</option>
            <option value="earlier">earlier (deprecated)</option>
          </select>
        </p>
        <button type="submit">Add endpoint</button>
      </form>
      {secret && (
        <div class="card secret" role="region" aria-label="New endpoint's secret">
          <p>
            The signing secret of <code>{secret.id}</code>, shown this once: keep it in your receiver's configuration.
          </p>
          <p>
            <code class="secret-value">{secret.secret}</code>
          </p>
          <button type="button" onClick={() => setSecret(undefined)}>
            Hide the secret
          </button>
        </div>
      )}
      {list.state === 'failed' && <p class="error">{describeError(list.error)}</p>}
      {list.state === 'done' && (
        <Table
          caption={list.data.length === 0 ? 'No endpoints yet.' : `${list.data.length} endpoint(s), newest first`}
          rows={list.data}
          keyOf={(endpoint) => endpoint.id}
          columns={[
            ['Id', (endpoint) => <code>{endpoint.id}</code>],
            ['URL', (endpoint) => endpoint.url ?? '(the operator’s)'],
            ['Layout', (endpoint) => endpoint.layout],
            ['Source', (endpoint) => (endpoint.listener ? 'listener' : endpoint.source)],
            ['Created', (endpoint) => <Time value={endpoint.created_at} />],
            [
              'Actions',
              (endpoint) =>
                endpoint.source === 'tenant' && (
                  <button type="button" onClick={() => void remove(endpoint.id)} aria-label={`Remove ${endpoint.id}`}>
                    Remove
                  </button>
                ),
            ],
          ]}
        />
      )}
    </section>
  );
}
