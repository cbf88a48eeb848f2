// Thrown when a clock is asked to move by what the control API's POST /_sandbox/clock/advance would refuse.

/** An advance was refused before the clock moved: `seconds` is not a number from 0 to the most one advance may take. */
export class ClockAdvanceError extends RangeError {
  override readonly name = 'ClockAdvanceError';
  /** The value refused, as given. */
  readonly seconds: unknown;

  constructor(seconds: unknown, max: number) {
    super(
      `sandbox.advance() moves a clock forward by 0 to ${max} seconds (365 days) at a time, as POST /_sandbox/clock/advance does; ` +
        `got ${String(seconds)}. The clock did not move: pass a number in that range, and advance several times to go further.`,
    );
    this.seconds = seconds;
  }
}
