// Decimal money strings as exact integers (units of 1e-8, the contract's finest amount), never floats.

const SCALE = 100_000_000n;
const AMOUNT = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,8}))?$/;

/** The amount as an integer number of 1e-8 units; throws on a string the contract's Amount pattern rejects. */
export function toUnits(amount: string): bigint {
  const match = AMOUNT.exec(amount);
  if (!match) throw new RangeError(`Not a contract amount: ${JSON.stringify(amount)}`);
  return BigInt(match[1]!) * SCALE + BigInt((match[2] ?? '').padEnd(8, '0'));
}

/** The longest amount string the contract's Amount schema allows (its maxLength). */
export const MAX_AMOUNT_LENGTH = 32;

/**
 * The integer amount as a decimal string with at least two fraction digits (`0.00`, `12.50`, `0.125`); without the
 * padding when it would make the string longer than the contract's Amount allows, so that an amount a request could
 * send is always written back within the schema.
 */
export function fromUnits(units: bigint): string {
  if (units < 0n) throw new RangeError(`A contract amount cannot be negative: ${units}`);
  const whole = units / SCALE;
  const digits = (units % SCALE).toString().padStart(8, '0').replace(/0+$/, '');
  const padded = `${whole}.${digits.padEnd(2, '0')}`;
  if (padded.length <= MAX_AMOUNT_LENGTH) return padded;
  return digits === '' ? `${whole}` : `${whole}.${digits}`;
}

/** Whether two amount strings are the same number (`9.1` and `9.10`). */
export const sameAmount = (a: string, b: string): boolean => toUnits(a) === toUnits(b);

const zeros = new Map<string, { amount: string; currency: string }>();

/** Zero in the given currency, one frozen object per currency (records share it). */
export function zero(currency: string): { amount: string; currency: string } {
  let money = zeros.get(currency);
  if (!money) zeros.set(currency, (money = Object.freeze({ amount: fromUnits(0n), currency })));
  return money;
}
