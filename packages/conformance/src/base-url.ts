// The kit takes the base URLs the variant's client takes, refusing the others with the client's own advice: a Variant B
// --base-url ending in /merchant/v1 would send every request to /merchant/v1/merchant/v1/... and fail every check.
import { ClientConfigError } from '@merchant-payments/contract/internal/client/errors/client-config-error.js';
import { createVariantAClient } from '@merchant-payments/contract/internal/client/variant-a.js';
import { createVariantBClient } from '@merchant-payments/contract/internal/client/variant-b.js';
import type { Variant } from '@merchant-payments/contract/internal/validation/index.js';
import { ConformanceUsageError } from './errors.js';

// Note: placeholders, never sent: building a client runs its option checks and sends nothing.
const PLACEHOLDER = 'conformance-base-url-check';

/** Throws ConformanceUsageError, with the client's message, when the variant's client refuses `baseUrl`. */
export function checkBaseUrl(variant: Variant, baseUrl: string): void {
  try {
    if (variant === 'a') createVariantAClient({ baseUrl, accessToken: PLACEHOLDER });
    else createVariantBClient({ baseUrl, publicKey: PLACEHOLDER, secretKey: PLACEHOLDER });
  } catch (error) {
    if (!(error instanceof ClientConfigError) || error.option !== 'baseUrl') throw error;
    throw new ConformanceUsageError(`--base-url: ${error.message}`);
  }
}
