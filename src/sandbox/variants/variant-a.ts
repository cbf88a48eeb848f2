// Variant A: bearer token (the token names the tenant), paths without a prefix, path parameter `{id}`. Payments come
// with reason_code (retrieve, create, cancel, refund), without it in lists, and in the confirmed shape from confirm.
import { confirmedPayment, listPayment, one, page, paymentWithReason } from '../shapes.js';
import { tenantIdOf } from '../tenants.js';
import { payoutAppealBalanceRoutes, route, type Authentication, type VariantAdapter } from './operation.js';

const BEARER = /^Bearer +([^\s]+) *$/i;

function authenticate(headers: Headers): Authentication {
  const token = BEARER.exec(headers.get('authorization') ?? '')?.[1];
  if (!token) return { ok: false, detail: 'Send Authorization: Bearer <token>. In the sandbox any token works, and each token is a tenant of its own.' };
  return { ok: true, tenant: tenantIdOf('a', token) };
}

/** Variant A's adapter. */
export const variantA: VariantAdapter = {
  name: 'A',
  authenticate,
  challenge: { 'www-authenticate': 'Bearer realm="merchant-payments-sandbox"' },
  operations: [
    route('POST', '/payments', 'createPayment', one(paymentWithReason)),
    route('GET', '/payments', 'listPayments', page(listPayment)),
    route('GET', '/payments/{id}', 'retrievePayment', one(paymentWithReason)),
    route('POST', '/payments/{id}/confirm', 'confirmPayment', one(confirmedPayment)),
    route('POST', '/payments/{id}/cancel', 'cancelPayment', one(paymentWithReason)),
    route('POST', '/payments/{id}/refund', 'refundPayment', one(paymentWithReason)),
    ...payoutAppealBalanceRoutes('', 'id', 'id'),
  ],
};
