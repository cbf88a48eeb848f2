// Variant B: the X-Public-Key / X-Secret-Key pair (the public key names the tenant; the first secret key seen with it
// is remembered and any other is refused), one payment shape (no reason_code) everywhere.
import { listPayment, one, page } from '../shapes.js';
import type { TenantStore } from '../stores/types.js';
import { pairSecret, tenantIdOf } from '../tenants.js';
import { PAYOUT_APPEAL_BALANCE_SHAPES, type Authentication, type VariantAdapter } from './operation.js';

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
  index: 'b',
  authenticate,
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
