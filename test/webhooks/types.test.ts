import type { IncomingHttpHeaders } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import type { components } from '../../packages/contract/generated/types/variant-a.js';
import {
  sendWebhookExample,
  verifyWebhook,
  type SendWebhookExampleOptions,
  type AppealStatusChangedEvent,
  type EarlierWebhookEvent,
  type PaymentStatusChangedEvent,
  type PayoutStatusChangedEvent,
  type WebhookBody,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookHeaders,
  type WebhookEventOf,
  type WebhookEventType,
} from '../../packages/contract/src/webhooks/index.js';

type Schemas = components['schemas'];

describe('verifyWebhook', () => {
  it('narrows event.data by event.type to the contract schema of that object', () => {
    const handle = (event: WebhookEvent) => {
      switch (event.type) {
        case 'payment.status_changed':
          expectTypeOf(event.data).toEqualTypeOf<Schemas['ConfirmedPayment']>();
          expectTypeOf(event.data.finalized_at).toEqualTypeOf<string>();
          expectTypeOf(event.data.reason_code).toEqualTypeOf<Schemas['ReasonCode']>();
          // @ts-expect-error a payment has no appeal_id
          void event.data.appeal_id;
          break;
        case 'payout.status_changed':
          expectTypeOf(event.data).toEqualTypeOf<Schemas['Payout']>();
          // @ts-expect-error a payout has no finalized_at
          void event.data.finalized_at;
          break;
        case 'appeal.status_changed':
          expectTypeOf(event.data).toEqualTypeOf<Schemas['Appeal']>();
          expectTypeOf(event.data.appeal_id).toEqualTypeOf<string>();
          break;
        default:
          expectTypeOf(event).toBeNever();
      }
    };
    expectTypeOf(handle).parameter(0).toEqualTypeOf<WebhookEvent>();
  });

  it('names each event and its data after the contract', () => {
    expectTypeOf<WebhookEvent>().toEqualTypeOf<
      PaymentStatusChangedEvent | PayoutStatusChangedEvent | AppealStatusChangedEvent
    >();
    expectTypeOf<WebhookEventType>().toEqualTypeOf<Schemas['EventType']>();
    expectTypeOf<WebhookEventOf<'payout.status_changed'>>().toEqualTypeOf<PayoutStatusChangedEvent>();
    expectTypeOf<WebhookEventData<'appeal.status_changed'>>().toEqualTypeOf<Schemas['Appeal']>();
    expectTypeOf<PaymentStatusChangedEvent['created_at']>().toEqualTypeOf<string>();
    expectTypeOf<EarlierWebhookEvent['data']>().toEqualTypeOf<Schemas['CreatePaymentRequest']>();
    // @ts-expect-error the earlier layout's data is a create-payment request, which has no status
    expectTypeOf((event: EarlierWebhookEvent) => event.data.status).toBeFunction();
  });

  it('returns the later event unless the earlier layout is allowed', () => {
    const later = () => verifyWebhook('', {}, 'whsec_');
    const either = () => verifyWebhook('', {}, 'whsec_', { allowEarlierLayout: true });
    const unknown = (allow: boolean) => verifyWebhook('', {}, 'whsec_', { allowEarlierLayout: allow });
    expectTypeOf(later).returns.resolves.toEqualTypeOf<WebhookEvent>();
    expectTypeOf(either).returns.resolves.toEqualTypeOf<WebhookEvent | EarlierWebhookEvent>();
    expectTypeOf(unknown).returns.resolves.toEqualTypeOf<WebhookEvent | EarlierWebhookEvent>();
  });

  it("sends only the contract's event types", () => {
    expectTypeOf<SendWebhookExampleOptions['type']>().toEqualTypeOf<WebhookEventType | undefined>();
    const send = () =>
      sendWebhookExample({ url: 'http://127.0.0.1:1/', secret: 'whsec_', type: 'payout.status_changed' });
    expectTypeOf(send).toBeFunction();
    expectTypeOf(() =>
      // @ts-expect-error `payment.succeeded` is not one of the contract's event types
      sendWebhookExample({ url: 'http://127.0.0.1:1/', secret: 'whsec_', type: 'payment.succeeded' }),
    ).toBeFunction();
  });

  it('takes the raw body and headers in the forms receivers get them', () => {
    expectTypeOf<string | Buffer | Uint8Array>().toExtend<WebhookBody>();
    expectTypeOf<Headers | IncomingHttpHeaders | Record<string, string>>().toExtend<WebhookHeaders>();
    // @ts-expect-error a parsed JSON object is not a raw body: the signature covers the bytes as received
    expectTypeOf(() => verifyWebhook({ id: 'evt_1' }, {}, 'whsec_')).toBeFunction();
  });
});
