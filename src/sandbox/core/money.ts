// Decimal money strings as exact integers (units of 1e-8, the contract's finest amount), never floats.

const SCALE = 100_000_000n;
const AMOUNT = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,8}))?$/;

/** The amount as an integer number of 1e-8 units; throws on a string the contract's Amount pattern rejects. */
export function toUnits(amount: string): bigint {
  const match = AMOUNT.exec(amount);
  if (!match) throw new RangeError(`Not a contract amount: ${JSON.stringify(amount)}`);
  return BigInt(match[1]!) * SCALE + BigInt((match[2] ?? '').padEnd(8, '0'));
}

/** The integer amount as a decimal string with at least two fraction digits (`0.00`, `12.50`, `0.125`). */
export function fromUnits(units: bigint): string {
  if (units < 0n) throw new RangeError(`A contract amount cannot be negative: ${units}`);
  const whole = units / SCALE;
  const fraction = (units % SCALE).toString().padStart(8, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction}`;
}

/** Whether two amount strings are the same number (`9.1` and `9.10`). */
export const sameAmount = (a: string, b: string): boolean => toUnits(a) === toUnits(b);

/** Zero in the given currency. */
export const zero = (currency: string) => ({ amount: fromUnits(0n), currency });
