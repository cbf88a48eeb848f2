// When each webhook delivery attempt is due. The contract states "retried with exponential backoff for about
// three days"; these are the attempts that make that exact.

/**
 * Seconds after the event at which each attempt is due: at once, then after 2^n - 1 minutes (1, 3, 7, … 4095),
 * so that the thirteenth and last attempt comes 68 h 15 min (about three days) after the event.
 */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = Array.from({ length: 13 }, (_, n) => (2 ** n - 1) * 60);

/** How much faster than the schedule a tenant's clock runs it by default: a minute of schedule per second. */
export const DEFAULT_RETRY_COMPRESSION = 60;

/** When attempt `number` (1-based) of an event emitted at `eventAt` is due, in ms; undefined after the last. */
export function attemptDueAt(eventAt: number, number: number, compression: number): number | undefined {
  const seconds = RETRY_SCHEDULE_SECONDS[number - 1];
  return seconds === undefined ? undefined : eventAt + Math.round((seconds * 1000) / compression);
}
