// The classes the egress rule (egress.ts) puts addresses in, and the error thrown (to the connection, by the rule's
// lookup) when a webhook endpoint's host resolves to an address of a class the rule refuses.

/** The class of an address, as the egress rule reads it. */
export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'metadata'
  | 'carrier_grade_nat'
  | 'unspecified'
  | 'broadcast'
  | 'multicast'
  | 'reserved'
  | 'documentation';

/** A connection the egress rule refused before it was made; names the class of the address, never the address. */
export class EgressRefusedError extends Error {
  override readonly name = 'EgressRefusedError';
  /** The class of the first refused address. */
  readonly addressClass: AddressClass;

  constructor(addressClass: AddressClass) {
    super(
      `The webhook endpoint's host resolves to an address of the class ${addressClass}, which the egress rule refuses; an operator can allow it with --allow-webhook-host.`,
    );
    this.addressClass = addressClass;
  }
}
