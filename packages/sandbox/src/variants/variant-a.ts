// Variant A: bearer token (in open mode the token names the tenant; in issued mode the registry does). Payments come
// with reason_code (retrieve, create, cancel, refund), without it in lists, and in the confirmed shape from confirm.
import { confirmedPayment, listPayment, one, page, paymentWithReason } from './shapes.js';
import { issuedAuthentication, NOT_ISSUED, tenantIdOf } from './credentials.js';
import {
  PAYOUT_APPEAL_BALANCE_SHAPES,
  type Authentication,
  type CredentialSource,
  type VariantAdapter,
} from './operation.js';

const BEARER = /^Bearer +([^\s]+) *$/i;

function authenticate(headers: Headers, source: CredentialSource): Authentication | Promise<Authentication> {
  const token = BEARER.exec(headers.get('authorization') ?? '')?.[1];
  if (source.auth === 'issued') {
    return token
      ? source.registry.tenantOfAccessToken(token, source.wallNow()).then(issuedAuthentication)
      : { ok: false, detail: NOT_ISSUED };
  }
  if (!token)
    return {
      ok: false,
      detail:
        'Send Authorization: Bearer <token>. In the sandbox any token works, and each token is a tenant of its own.',
    };
  const open = { ok: true as const, tenant: tenantIdOf('a', token) };
  // Note: a test tenant's token names the test tenant; any other, a test tenant's once it is deleted included, is open.
  return source.registry
    ? source.registry.tenantOfAccessToken(token, source.wallNow()).then((id) => (id ? { ok: true, tenant: id } : open))
    : open;
}

/** Variant A's adapter. */
export const variantA: VariantAdapter = {
  name: 'A',
  index: 'a',
  authenticate,
  challenge: { 'www-authenticate': 'Bearer realm="merchant-payments-sandbox"' },
  shapes: {
    createPayment: one(paymentWithReason),
    listPayments: page(listPayment),
    retrievePayment: one(paymentWithReason),
    confirmPayment: one(confirmedPayment),
    cancelPayment: one(paymentWithReason),
    refundPayment: one(paymentWithReason),
    ...PAYOUT_APPEAL_BALANCE_SHAPES,
  },
};
