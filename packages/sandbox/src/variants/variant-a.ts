// Variant A: bearer token (in open mode the token names the tenant; in issued mode the registry does). Payments come
// with reason_code (retrieve, create, cancel, refund), without it in lists, and in the confirmed shape from confirm.
import { confirmedPayment, listPayment, one, page, paymentWithReason } from './shapes.js';
import { ACCESS_TOKEN } from '../stores/issued-credentials.js';
import { issuedAuthentication, NOT_A_TEST_TENANT, NOT_ISSUED, openAuthentication, tenantIdOf } from './credentials.js';
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
  // Note: a token of the form the sandbox issues is a test tenant's (made through /_sandbox/tenants); any other is open.
  if (source.registry && ACCESS_TOKEN.test(token))
    return source.registry
      .tenantOfAccessToken(token, source.wallNow())
      .then((holder) => (holder ? { ok: true, ...holder } : { ok: false, detail: NOT_A_TEST_TENANT }));
  return openAuthentication(tenantIdOf('a', token));
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
