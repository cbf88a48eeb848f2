// When each webhook delivery attempt is due. The contract states "retried with exponential backoff for about
// three days"; these are the attempts that make that exact.

/**
 * Seconds after the event at which each attempt is due: at once, then after 2^n - 1 minutes (1, 3, 7, … 4095),
 * so that the thirteenth and last attempt comes 68 h 15 min (about three days) after the event.
 */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = Array.from({ length: 13 }, (_, n) => (2 ** n - 1) * 60);

/** How much faster than the schedule a tenant's clock runs it by default: a minute of schedule per second. */
export const DEFAULT_RETRY_COMPRESSION = 60;

/**
 * When attempt `number` (1-based, from 2) is due, given when the attempt before it was made; undefined after the last.
 * Note: counted from the previous attempt, not from the event, so that a late or redelivered attempt does not make
 * the rest of the schedule fall due at once.
 */
export function nextAttemptAt(previousAt: number, number: number, compression: number): number | undefined {
  const seconds = RETRY_SCHEDULE_SECONDS[number - 1];
  const before = RETRY_SCHEDULE_SECONDS[number - 2];
  if (seconds === undefined || before === undefined) return undefined;
  return previousAt + Math.round(((seconds - before) * 1000) / compression);
}
