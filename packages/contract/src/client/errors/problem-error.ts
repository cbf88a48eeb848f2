// Thrown by helpers that cannot hand back `{ data, error }` (paginate): carries the service's Problem.
import type { Problem } from '../problem.js';

/** The service answered with an error; `problem` is its RFC 9457 body when it sent one. */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The Problem body, or undefined when the body was not a Problem (e.g. a proxy's HTML page). */
  readonly problem: Problem | undefined;

  constructor(message: string, details: { status: number; problem: Problem | undefined }) {
    super(message);
    this.status = details.status;
    this.problem = details.problem;
  }
}
