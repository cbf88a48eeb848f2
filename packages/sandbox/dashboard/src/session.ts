// The tenant's credentials, kept in this tab's sessionStorage only, and the package's typed clients made from them: the
// variant's own client for its objects, the control client for the rest. Never in a URL, a cookie or a log.
import {
  createSandboxControlClient,
  type SandboxControlClient,
} from '@merchant-payments/contract/internal/sandbox-control/client.js';
import type { ClientOptions } from '@merchant-payments/contract/internal/client/options.js';
import { createVariantAClient, type VariantAClient } from '@merchant-payments/contract/internal/client/variant-a.js';
import { createVariantBClient, type VariantBClient } from '@merchant-payments/contract/internal/client/variant-b.js';

/** A tenant's credentials, as the variant it uses sends them. */
export type Credentials =
  { variant: 'A'; accessToken: string } | { variant: 'B'; publicKey: string; secretKey: string };

/** The clients of one signed-in tenant. */
export type Clients = { control: SandboxControlClient } & (
  { variant: 'A'; merchant: VariantAClient } | { variant: 'B'; merchant: VariantBClient }
);

const KEY = 'merchant-payments-dashboard:credentials';

/** The credentials this tab signed in with, if any. */
export function loadCredentials(): Credentials | undefined {
  const text = sessionStorage.getItem(KEY);
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as Partial<Record<string, unknown>>;
    if (value.variant === 'A' && typeof value.accessToken === 'string')
      return { variant: 'A', accessToken: value.accessToken };
    if (value.variant === 'B' && typeof value.publicKey === 'string' && typeof value.secretKey === 'string')
      return { variant: 'B', publicKey: value.publicKey, secretKey: value.secretKey };
  } catch {
    // Note: anything else in the slot is forgotten below, as if never signed in.
  }
  sessionStorage.removeItem(KEY);
  return undefined;
}

/** Keeps the credentials for this tab until it closes or the user signs out. */
export function saveCredentials(credentials: Credentials): void {
  sessionStorage.setItem(KEY, JSON.stringify(credentials));
}

/** Forgets the credentials (Sign out, or credentials the sandbox refused). */
export function forgetCredentials(): void {
  sessionStorage.removeItem(KEY);
}

/** The typed clients for `credentials`, on this page's own origin. */
export function clientsFor(credentials: Credentials): Clients {
  const shared: ClientOptions = {
    baseUrl: location.origin,
    // Note: one attempt, so that a fault added here fails the very call it names and the page shows that answer.
    retry: false,
  };
  if (credentials.variant === 'A') {
    const { accessToken } = credentials;
    return {
      variant: 'A',
      merchant: createVariantAClient({ ...shared, accessToken }),
      control: createSandboxControlClient({ ...shared, accessToken }),
    };
  }
  const { publicKey, secretKey } = credentials;
  return {
    variant: 'B',
    merchant: createVariantBClient({ ...shared, publicKey, secretKey }),
    control: createSandboxControlClient({ ...shared, publicKey, secretKey }),
  };
}
