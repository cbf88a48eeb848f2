// Variant A's named types, read from the contract: `import type { VariantA } from '@merchant-payments/contract'`.
import type { operations, webhooks } from '../../generated/types/variant-a.js';

export type * from './shared.js';
export type {
  VariantAClient as Client,
  VariantAClientOptions as ClientOptions,
  VariantAPaths as Paths,
} from '../client/variant-a.js';
/** Every operation of Variant A by operationId, as generated from the contract. */
export type Operations = operations;
/** The `onStatusChange` webhooks (later and earlier layout), as generated from the contract. */
export type Webhooks = webhooks;
// Only Variant A uses these: PaymentWithReason (Create, Retrieve, Cancel and Refund return it) and Confirm Payment's body.
export type { ConfirmPaymentRequest, PaymentWithReason } from '../../generated/types/variant-a.js';
