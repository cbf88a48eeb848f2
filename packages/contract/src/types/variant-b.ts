// Variant B's named types, read from the contract: `import type { VariantB } from '@merchant-payments/contract'`.
import type { operations, webhooks } from '../../generated/types/variant-b.js';

export type * from './shared.js';
export type {
  VariantBClient as Client,
  VariantBClientOptions as ClientOptions,
  VariantBPaths as Paths,
} from '../client/variant-b.js';
/** Every operation of Variant B by operationId, as generated from the contract. */
export type Operations = operations;
/** The `onStatusChange` webhooks (later and earlier layout), as generated from the contract. */
export type Webhooks = webhooks;
