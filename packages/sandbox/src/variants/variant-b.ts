// Variant B: the X-Public-Key / X-Secret-Key pair (in open mode the public key names the tenant, and the first secret
// key seen with it is remembered and any other refused; in issued mode the registry's key pairs only), one payment
// shape (no reason_code) everywhere.
import type { StoreSession } from '../stores/types.js';
import { listPayment, one, page } from './shapes.js';
import { PUBLIC_KEY } from '../stores/issued-credentials.js';
import {
  issuedAuthentication,
  NOT_A_TEST_TENANT,
  NOT_ISSUED,
  openAuthentication,
  pairSecret,
  tenantIdOf,
} from './credentials.js';
import {
  PAYOUT_APPEAL_BALANCE_SHAPES,
  type Authentication,
  type CredentialSource,
  type VariantAdapter,
} from './operation.js';

async function authenticate(
  headers: Headers,
  source: CredentialSource,
  session?: StoreSession,
): Promise<Authentication> {
  const publicKey = headers.get('x-public-key');
  const secretKey = headers.get('x-secret-key');
  // Note: no secret key is learnt here, and nothing is made in the store: only the registry's key pairs get in.
  if (source.auth === 'issued') {
    return publicKey && secretKey
      ? issuedAuthentication(await source.registry.tenantOfKeyPair(publicKey, secretKey, source.wallNow()))
      : { ok: false, detail: NOT_ISSUED };
  }
  const { store } = source;
  if (!publicKey || !secretKey)
    return {
      ok: false,
      detail:
        'Send both X-Public-Key and X-Secret-Key. In the sandbox any pair works, and each public key is a tenant of its own.',
    };
  // Note: a public key of the form the sandbox issues is a test tenant's, with its own secret key only; any other is open.
  if (source.registry && PUBLIC_KEY.test(publicKey)) {
    const test = await source.registry.tenantOfKeyPair(publicKey, secretKey, source.wallNow());
    return test ? { ok: true, ...test } : { ok: false, detail: NOT_A_TEST_TENANT };
  }
  const tenant = tenantIdOf('b', publicKey);
  const pair = await store.transaction(tenant, (state) => pairSecret(state, secretKey), session);
  if (pair === 'wrong') {
    return {
      ok: false,
      detail:
        'This X-Secret-Key is not the one first used with this X-Public-Key; the sandbox keeps the first one it sees.',
    };
  }
  return openAuthentication(tenant);
}

/** Open mode's tenant of a key pair that is not a test tenant's: its own merchant, named before the store is read. */
function merchantBefore(headers: Headers, source: CredentialSource): string | undefined {
  const publicKey = headers.get('x-public-key');
  if (source.auth !== 'open' || !publicKey || !headers.get('x-secret-key')) return undefined;
  return source.registry && PUBLIC_KEY.test(publicKey) ? undefined : tenantIdOf('b', publicKey);
}

/** Variant B's adapter. */
export const variantB: VariantAdapter = {
  name: 'B',
  index: 'b',
  authenticate,
  merchantBefore,
  challenge: {},
  shapes: {
    createPayment: one(listPayment),
    listPayments: page(listPayment),
    retrievePayment: one(listPayment),
    cancelPayment: one(listPayment),
    refundPayment: one(listPayment),
    ...PAYOUT_APPEAL_BALANCE_SHAPES,
  },
};
