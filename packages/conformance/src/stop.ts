// When a stage stops before its end: the run's deadline passed, or the server stopped answering. Either way the stage's
// remaining requests are not sent, and the report says why.

/** Requests in a row without an answer after which a stage stops: one lost request is a failure, several a dead server. */
export const UNANSWERED_IN_A_ROW = 3;

/** The run's deadline when none is given, in milliseconds (15 minutes; --deadline). */
export const DEFAULT_DEADLINE_MS = 15 * 60 * 1000;

/** Thrown out of a stage to end it early; run.ts records it as the stage's `stage_completed` failure. */
export class StageStopped extends Error {
  override name = 'StageStopped';
}

/** The run's deadline and the count of unanswered requests in a row. */
export interface RunWatch {
  /** Aborts when the deadline passes. */
  deadline: AbortSignal;
  deadlineMs: number;
  /** Milliseconds left before the deadline (0 once it passed). */
  remainingMs(): number;
  /** Throws StageStopped when the deadline has passed. */
  check(): void;
  /** Notes one request's outcome; throws StageStopped after UNANSWERED_IN_A_ROW requests got no answer. */
  note(answered: boolean, why?: string): void;
  /** Starts counting again (a new stage). */
  reset(): void;
}

/** A watch whose deadline is `deadlineMs` from now. */
export function createWatch(deadlineMs: number): RunWatch {
  const endsAt = performance.now() + deadlineMs;
  const deadline = AbortSignal.timeout(deadlineMs);
  let unanswered = 0;
  const passed = () =>
    new StageStopped(
      `the run's deadline of ${deadlineMs / 1000} s (--deadline) passed; the stage's remaining requests were not sent`,
    );
  return {
    deadline,
    deadlineMs,
    remainingMs: () => Math.max(0, Math.round(endsAt - performance.now())),
    check() {
      if (deadline.aborted) throw passed();
    },
    note(answered, why) {
      unanswered = answered ? 0 : unanswered + 1;
      if (unanswered < UNANSWERED_IN_A_ROW) return;
      unanswered = 0;
      throw new StageStopped(
        `the server stopped answering: ${UNANSWERED_IN_A_ROW} requests in a row got no answer${why ? ` (the last: ${why})` : ''}; the stage's remaining requests were not sent`,
      );
    },
    reset() {
      unanswered = 0;
    },
  };
}
