import { describe, expect, inject, it } from 'vitest';
import { quickstartVariantA } from '../../examples/quickstart-variant-a.js';
import { quickstartVariantB } from '../../examples/quickstart-variant-b.js';

// The TypeScript form of the README's quickstarts, run against the Prism mock of each variant; the lines are the spec's examples.
describe('quickstarts', () => {
  it('Variant A runs against the mock', async () => {
    const lines: string[] = [];
    await quickstartVariantA(inject('mockUrls').A, (line) => lines.push(line));
    expect(lines).toEqual([
      'created pay_8f3k2m9q4w7x: created, 1500.00 EUR',
      'confirmed pay_8f3k2m9q4w7x: succeeded at 2026-01-15T10:12:00Z, card 4111 11** **** 1111',
      'retrieve: 404 not_found',
      'listed pay_8f3k2m9q4w7x: pending, updated 2026-01-15T10:05:00Z',
      'listed pay_5d8g1j4m7p0s: succeeded, updated 2026-01-14T16:32:00Z',
      'listed pay_2c6f9k3n7r1v: expired, updated 2026-01-14T09:30:00Z',
    ]);
  });

  it('Variant B runs against the mock', async () => {
    const lines: string[] = [];
    await quickstartVariantB(inject('mockUrls').B, (line) => lines.push(line));
    expect(lines).toEqual([
      'created pay_8f3k2m9q4w7x: created, updated 2026-01-15T10:00:00Z',
      'refunded pay_8f3k2m9q4w7x: refunded',
      'payout po_3h6j9l2n5p8r: created',
      "cancel appeal: The object's current status does not allow this operation; retrieve it to see its status.",
      'listed payout po_3h6j9l2n5p8r: 500.00 EUR',
      'listed payout po_7k2m5p8s1u4x: 120.00 EUR',
    ]);
  });
});
