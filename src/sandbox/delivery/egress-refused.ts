// Thrown (to the connection, by the egress rule's lookup) when a webhook endpoint's host resolves to an address the rule refuses.
import type { AddressClass } from './egress.js';

/** A connection the egress rule refused before it was made; names the class of the address, never the address. */
export class EgressRefusedError extends Error {
  override readonly name = 'EgressRefusedError';
  /** The class of the first refused address. */
  readonly addressClass: AddressClass;

  constructor(addressClass: AddressClass) {
    super(`The webhook endpoint's host resolves to an address of the class ${addressClass}, which the egress rule refuses; an operator can allow it with --allow-webhook-host.`);
    this.addressClass = addressClass;
  }
}
