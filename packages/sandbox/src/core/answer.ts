// What a command answers: a result body or a problem, and whether it replays an earlier answer.
import { problem, type CoreProblem, type ProblemCode } from './problems.js';

/** A command's answer; adapters turn it into an HTTP response of their variant's shape. */
export type Answer<T = unknown> =
  | { ok: true; status: 200; body: T; replayed?: true }
  | { ok: false; status: CoreProblem['status']; problem: CoreProblem; replayed?: true };

/** A successful answer. Its body may share the state's frozen records, which are never changed in place. */
export function success<T>(body: T): Answer<T> {
  return { ok: true, status: 200, body };
}

/** An answer with the problem `code`. */
export function failure(code: ProblemCode, detail: string, errors?: CoreProblem['errors']): Answer<never> {
  const p = problem(code, detail, errors);
  return { ok: false, status: p.status, problem: p };
}
