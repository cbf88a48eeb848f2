// The tenant's test tenants, where the sandbox lets it make them: make one (its credentials shown once), revoke one.
import type { TestTenantCredentials } from '@merchant-payments/contract/internal/sandbox-control/types.js';
import { useState } from 'preact/hooks';
import { describeError, Time } from '../feedback.js';
import { answerOf, useLoad } from '../load.js';
import { Table } from '../table.js';
import type { ViewProps } from '../view.js';

export function TestTenants({ clients, version, refresh, say }: ViewProps) {
  const list = useLoad(
    () => answerOf(clients.control.GET('/_sandbox/tenants', { params: { query: { limit: 100 } } }), (d) => d.data),
    [clients, version],
  );
  const [made, setMade] = useState<TestTenantCredentials>();
  const create = async () => {
    const { data, error } = await clients.control.POST('/_sandbox/tenants');
    if (error !== undefined || !data) return say({ kind: 'error', text: describeError(error) });
    setMade(data.data);
    say({ kind: 'notice', text: `Made test tenant ${data.data.id}.` });
    refresh();
  };
  const revoke = async (tenantId: string) => {
    const { error } = await clients.control.DELETE('/_sandbox/tenants/{tenantId}', { params: { path: { tenantId } } });
    if (error !== undefined) return say({ kind: 'error', text: describeError(error) });
    if (made?.id === tenantId) setMade(undefined);
    say({ kind: 'notice', text: `Revoked test tenant ${tenantId}.` });
    refresh();
  };
  return (
    <section aria-labelledby="tenants-title">
      <h1 id="tenants-title">Test tenants</h1>
      <p>
        A test tenant has state of its own and expires when unused; revoking this tenant or resetting it deletes them.
      </p>
      <button type="button" onClick={() => void create()}>
        Make a test tenant
      </button>
      {made && (
        <div class="card secret" role="region" aria-label="New test tenant's credentials">
          <p>
            The credentials of <code>{made.id}</code>, shown this once (expires <Time value={made.expires_at} /> unless
            used):
          </p>
          <dl class="fields">
            <div>
              <dt>Access token</dt>
              <dd>
                <code>{made.access_token}</code>
              </dd>
            </div>
            <div>
              <dt>Public key</dt>
              <dd>
                <code>{made.public_key}</code>
              </dd>
            </div>
            <div>
              <dt>Secret key</dt>
              <dd>
                <code>{made.secret_key}</code>
              </dd>
            </div>
          </dl>
          <button type="button" onClick={() => setMade(undefined)}>
            Hide the credentials
          </button>
        </div>
      )}
      {list.state === 'failed' && <p class="error">{describeError(list.error)}</p>}
      {list.state === 'done' && (
        <Table
          caption={list.data.length === 0 ? 'No test tenants.' : `${list.data.length} test tenant(s), newest first`}
          rows={list.data}
          keyOf={(tenant) => tenant.id}
          columns={[
            ['Id', (tenant) => <code>{tenant.id}</code>],
            ['Public key', (tenant) => <code>{tenant.public_key}</code>],
            ['Created', (tenant) => <Time value={tenant.created_at} />],
            ['Expires', (tenant) => <Time value={tenant.expires_at} />],
            [
              'Actions',
              (tenant) => (
                <button type="button" onClick={() => void revoke(tenant.id)} aria-label={`Revoke ${tenant.id}`}>
                  Revoke
                </button>
              ),
            ],
          ]}
        />
      )}
    </section>
  );
}
