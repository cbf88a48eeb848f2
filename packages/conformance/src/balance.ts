// The balance per currency that the payments and payouts a server lists add up to, and amounts as exact numbers: the
// contract's amounts are decimal strings with at most 8 fraction digits, so they are compared in units of 1e-8.
const SCALE = 8;

/** An Amount as an integer of 1e-8 units; undefined when it is not a decimal string. */
export function units(amount: unknown): bigint | undefined {
  if (typeof amount !== 'string' || !/^\d+(\.\d{1,8})?$/.test(amount)) return undefined;
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole) * 10n ** BigInt(SCALE) + BigInt(fraction.padEnd(SCALE, '0'));
}

/** Units back as a decimal string with two fraction digits at least (as the contract's examples write amounts). */
export function amountOf(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString().padStart(SCALE + 1, '0');
  const fraction = digits.slice(-SCALE).replace(/0+$/, '').padEnd(2, '0');
  return `${sign}${digits.slice(0, -SCALE)}.${fraction}`;
}

interface Money {
  amount?: unknown;
  currency?: unknown;
}
export interface Listed {
  status?: unknown;
  requested?: Money;
  processed?: Money;
  refunded?: Money;
}

export interface Entry {
  available: bigint;
  pending: bigint;
}

// Note: the rule the sandbox implements (packages/sandbox/src/core/balance.ts): a payout holds its amount from creation until it
// fails, expires or is canceled, and incoming money is pending until the payment leaves created or pending.
const PAYOUT_HOLDS = new Set(['created', 'pending', 'processing', 'succeeded']);
const PAYMENT_PENDING = new Set(['created', 'pending']);

/** The balance the objects add up to, by currency; a field that is not an amount is reported, not guessed. */
export function expectedBalance(
  payments: readonly Listed[],
  payouts: readonly Listed[],
): { balance: Map<string, Entry>; unreadable: string[] } {
  const balance = new Map<string, Entry>();
  const unreadable: string[] = [];
  const entry = (currency: unknown) => {
    const key = String(currency);
    let found = balance.get(key);
    if (!found) balance.set(key, (found = { available: 0n, pending: 0n }));
    return found;
  };
  const read = (value: unknown, what: string) => {
    const read = units(value);
    if (read === undefined) unreadable.push(`${what} is ${JSON.stringify(value)}`);
    return read ?? 0n;
  };
  for (const payment of payments) {
    const into = entry(payment.requested?.currency);
    into.available +=
      read(payment.processed?.amount ?? '0', 'processed.amount') -
      read(payment.refunded?.amount ?? '0', 'refunded.amount');
    if (PAYMENT_PENDING.has(String(payment.status)))
      into.pending += read(payment.requested?.amount, 'requested.amount');
  }
  for (const payout of payouts) {
    const into = entry(payout.requested?.currency);
    if (PAYOUT_HOLDS.has(String(payout.status))) into.available -= read(payout.requested?.amount, 'requested.amount');
  }
  return { balance, unreadable };
}
