// Variant A's named types, read from the contract: `import type { VariantA } from '@merchant-payments/contract'`.
import type { components, operations, webhooks } from '../../generated/types/variant-a.js';

export type * from './shared.js';
export type { VariantAClient as Client, VariantAClientOptions as ClientOptions, VariantAPaths as Paths } from '../client/variant-a.js';
/** Every operation of Variant A by operationId, as generated from the contract. */
export type Operations = operations;
/** The `onStatusChange` webhooks (later and earlier layout), as generated from the contract. */
export type Webhooks = webhooks;
/** A payment as Create, Retrieve, Cancel and Refund return it: the list shape plus `reason_code`. */
export type PaymentWithReason = components['schemas']['PaymentWithReason'];
/** Body of Confirm Payment. */
export type ConfirmPaymentRequest = components['schemas']['ConfirmPaymentRequest'];
