// Variant B: the X-Public-Key / X-Secret-Key pair (the public key names the tenant; the first secret key seen with it
// is remembered and any other is refused), paths under /merchant/v1, one payment shape (no reason_code) everywhere.
import { listPayment, one, page } from '../shapes.js';
import type { TenantStore } from '../stores/types.js';
import { pairSecret, tenantIdOf } from '../tenants.js';
import { payoutAppealBalanceRoutes, route, type Authentication, type VariantAdapter } from './operation.js';

const PREFIX = '/merchant/v1';

async function authenticate(headers: Headers, store: TenantStore): Promise<Authentication> {
  const publicKey = headers.get('x-public-key');
  const secretKey = headers.get('x-secret-key');
  if (!publicKey || !secretKey) return { ok: false, detail: 'Send both X-Public-Key and X-Secret-Key. In the sandbox any pair works, and each public key is a tenant of its own.' };
  const tenant = tenantIdOf('b', publicKey);
  const pair = await store.transaction(tenant, (state) => pairSecret(state, secretKey));
  if (pair === 'wrong') {
    return { ok: false, detail: 'This X-Secret-Key is not the one first used with this X-Public-Key; the sandbox keeps the first one it sees.' };
  }
  return { ok: true, tenant, learned: pair === 'learned' };
}

/** Variant B's adapter. */
export const variantB: VariantAdapter = {
  name: 'B',
  authenticate,
  challenge: {},
  operations: [
    route('POST', `${PREFIX}/payments`, 'createPayment', one(listPayment)),
    route('GET', `${PREFIX}/payments`, 'listPayments', page(listPayment)),
    route('GET', `${PREFIX}/payments/{paymentId}`, 'retrievePayment', one(listPayment)),
    route('POST', `${PREFIX}/payments/{paymentId}/cancel`, 'cancelPayment', one(listPayment)),
    route('POST', `${PREFIX}/payments/{paymentId}/refund`, 'refundPayment', one(listPayment)),
    ...payoutAppealBalanceRoutes(PREFIX, 'payoutId', 'appealId'),
  ],
};
