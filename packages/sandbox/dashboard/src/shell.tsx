// The signed-in page: the tenant's clock and Sign out, the views' navigation, and the view the fragment names.
import { useEffect, useState } from 'preact/hooks';
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import { ClockPanel } from './views/clock.js';
import { Deliveries } from './views/deliveries.js';
import { Endpoints } from './views/endpoints.js';
import { Faults } from './views/faults.js';
import { ObjectList } from './views/object-list.js';
import { ObjectPage } from './views/object-page.js';
import { TestTenants } from './views/test-tenants.js';
import { MessageLine, type Message } from './feedback.js';
import { href, useRoute } from './route.js';
import type { Clients } from './session.js';
import type { ViewProps } from './view.js';

const KINDS: Record<string, ObjectKind> = { payments: 'payment', payouts: 'payout', appeals: 'appeal' };

const NAV = [
  ['payments', 'Payments'],
  ['payouts', 'Payouts'],
  ['appeals', 'Appeals'],
  ['deliveries', 'Deliveries'],
  ['endpoints', 'Webhook endpoints'],
  ['faults', 'Faults'],
  ['tenants', 'Test tenants'],
] as const;

export function Shell({ clients, onSignOut }: { clients: Clients; onSignOut(): void }) {
  const route = useRoute();
  const [version, setVersion] = useState(0);
  const [message, setMessage] = useState<Message>();
  const props: ViewProps = { clients, version, refresh: () => setVersion((v) => v + 1), say: setMessage };
  const [section = 'payments', id] = route.parts;
  // Note: a message is about the view it was said on; another view starts without it.
  useEffect(() => setMessage(undefined), [section, id]);
  const kind = KINDS[section];
  let view;
  if (kind && id) view = <ObjectPage {...props} kind={kind} id={id} />;
  else if (kind) view = <ObjectList {...props} kind={kind} query={route.query} />;
  else if (section === 'deliveries') view = <Deliveries {...props} query={route.query} />;
  else if (section === 'endpoints') view = <Endpoints {...props} />;
  else if (section === 'faults') view = <Faults {...props} />;
  else if (section === 'tenants') view = <TestTenants {...props} />;
  else view = <p>No such view; choose one above.</p>;
  return (
    <>
      <header class="bar">
        <p class="brand">Sandbox dashboard · Variant {clients.variant}</p>
        <ClockPanel {...props} />
        <button type="button" onClick={onSignOut}>
          Sign out
        </button>
      </header>
      <nav aria-label="Views">
        <ul>
          {NAV.map(([path, label]) => (
            <li key={path}>
              <a href={href(path)} aria-current={section === path ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main>
        <MessageLine message={message} />
        {view}
      </main>
    </>
  );
}
