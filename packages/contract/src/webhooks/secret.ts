// Making a new endpoint secret in the format the signer and the verifier take.
import { toBase64 } from './crypto.js';

/** A new `whsec_` secret: 24 random bytes in standard base64, as `stripe listen` makes one. */
export function generateWebhookSecret(): string {
  return `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(24)))}`;
}
