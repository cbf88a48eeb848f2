// The balance per currency, derived from payments and payouts: each object contributes according to its status,
// and the ledger is kept up to date by taking an object's old contribution out and its new one in.
import { fromUnits, toUnits } from '@merchant-payments/contract/internal/sandbox-model/money.js';
import type { LedgerEntry, TenantState } from './tenant.js';
import type { AnyRecord, BalanceBody, ObjectKind, PaymentRecord, PayoutRecord } from './types.js';

/** What one object adds to its currency's ledger entry (negative: takes away). */
export interface Contribution {
  currency: string;
  available: bigint;
  pending: bigint;
}

// Note: a payout holds its amount from creation (so two payouts cannot spend the same money) and keeps it when it
// succeeds; failing, expiring or being canceled gives it back. Incoming money is pending until the payment succeeds.
const PAYOUT_HOLDS = new Set(['created', 'pending', 'processing', 'succeeded']);
const PAYMENT_PENDING = new Set(['created', 'pending']);

/** What an object contributes in its current state; appeals contribute nothing. */
export function contribution(kind: ObjectKind, record: AnyRecord): Contribution | undefined {
  if (kind === 'payment') {
    const p = record as PaymentRecord;
    return {
      currency: p.requested.currency,
      available: toUnits(p.processed.amount) - toUnits(p.refunded.amount),
      pending: PAYMENT_PENDING.has(p.status) ? toUnits(p.requested.amount) : 0n,
    };
  }
  if (kind === 'payout') {
    const p = record as PayoutRecord;
    return {
      currency: p.requested.currency,
      available: PAYOUT_HOLDS.has(p.status) ? -toUnits(p.requested.amount) : 0n,
      pending: 0n,
    };
  }
  return undefined;
}

function entry(tenant: TenantState, currency: string): LedgerEntry {
  let e = tenant.ledger.get(currency);
  if (!e) tenant.ledger.set(currency, (e = { available: 0n, pending: 0n }));
  return e;
}

/** Moves the ledger from the `before` contribution to the `after` one. */
export function rebook(tenant: TenantState, before: Contribution | undefined, after: Contribution | undefined): void {
  if (before) {
    const e = entry(tenant, before.currency);
    e.available -= before.available;
    e.pending -= before.pending;
  }
  if (after) {
    const e = entry(tenant, after.currency);
    e.available += after.available;
    e.pending += after.pending;
  }
}

/** Whether moving from `before` to `after` would take the available balance below zero. */
export function overdraws(
  tenant: TenantState,
  before: Contribution | undefined,
  after: Contribution | undefined,
): boolean {
  if (!after) return false;
  const now = tenant.ledger.get(after.currency)?.available ?? 0n;
  const change = after.available - (before?.currency === after.currency ? before.available : 0n);
  return change < 0n && now + change < 0n;
}

/** The available amount in a currency, as a contract amount. */
export const availableIn = (tenant: TenantState, currency: string): string =>
  fromUnits(tenant.ledger.get(currency)?.available ?? 0n);

/** The balance: one entry per currency the tenant has used, by currency code. */
export function balanceOf(tenant: TenantState): BalanceBody {
  const currencies = [...tenant.ledger.keys()].sort();
  return {
    balances: currencies.map((currency) => {
      const e = tenant.ledger.get(currency)!;
      return { currency, available: fromUnits(e.available), pending: fromUnits(e.pending) };
    }),
  };
}
