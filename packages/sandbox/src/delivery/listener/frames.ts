// The listener's message protocol (the control API's Connect Webhook Listener): JSON text frames, the sandbox's
// `ready` and `attempt`, and the client's `outcome`, which is checked here member by member before anything reads it.
import type { SentOutcome } from '../send-attempt.js';

/** The largest frame a client may send, in bytes: an outcome is a few hundred. */
export const MAX_CLIENT_FRAME_BYTES = 4096;
/** The longest `error` a client may report. */
export const MAX_OUTCOME_ERROR = 200;

/** The first frame: the listener's id (to resume with) and the secret its attempts are signed with. */
export interface ReadyFrame {
  type: 'ready';
  listener: { id: string; secret: string };
}

/** One attempt to POST on: the scheme's headers and the body exactly as signed. */
export interface AttemptFrame {
  type: 'attempt';
  delivery_id: string;
  attempt: number;
  event_id: string;
  /** How long the sandbox waits for the outcome, in ms (its delivery time-out). */
  timeout_ms: number;
  headers: Record<string, string>;
  body: string;
}

/** The client's report of one attempt: the receiver's status and time, or why it gave none. */
export type OutcomeFrame = {
  type: 'outcome';
  delivery_id: string;
  attempt: number;
  duration_ms?: number;
} & ({ status: number } | { error: string });

const KEYS = new Set(['type', 'delivery_id', 'attempt', 'status', 'duration_ms', 'error']);
const ID = /^[A-Za-z0-9_]{1,64}$/;
const whole = (value: unknown, min: number, max: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** A client frame as an outcome, or the reason (for the close frame, at most 123 bytes) it is not one. */
export function parseOutcome(data: string): OutcomeFrame | { refused: string } {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return { refused: 'A frame is not JSON.' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { refused: 'A frame is not a JSON object.' };
  const frame = value as Record<string, unknown>;
  if (frame.type !== 'outcome') return { refused: 'A frame has a type other than "outcome".' };
  if (Object.keys(frame).some((key) => !KEYS.has(key))) return { refused: 'An outcome has an unknown member.' };
  if (typeof frame.delivery_id !== 'string' || !ID.test(frame.delivery_id))
    return { refused: 'An outcome has no valid delivery_id.' };
  if (!whole(frame.attempt, 1, 100)) return { refused: 'An outcome has no valid attempt number.' };
  if (frame.duration_ms !== undefined && !whole(frame.duration_ms, 0, 600_000))
    return { refused: 'An outcome has a duration_ms that is not 0 to 600000.' };
  const hasStatus = frame.status !== undefined;
  if (hasStatus === (frame.error !== undefined)) return { refused: 'An outcome has either status or error.' };
  if (hasStatus && !whole(frame.status, 100, 599))
    return { refused: 'An outcome has a status that is not 100 to 599.' };
  if (
    !hasStatus &&
    !(typeof frame.error === 'string' && frame.error.length > 0 && frame.error.length <= MAX_OUTCOME_ERROR)
  )
    return { refused: `An outcome has an error that is not 1 to ${MAX_OUTCOME_ERROR} characters.` };
  return frame as OutcomeFrame;
}

/** An outcome frame as the delivery log records it, worded as the sandbox's own attempts are. */
export function outcomeOf(frame: OutcomeFrame): SentOutcome {
  const timed = frame.duration_ms === undefined ? {} : { duration_ms: frame.duration_ms };
  if ('error' in frame) return { ok: false, error: frame.error.replace(/[\x00-\x1f\x7f]/g, ' '), ...timed };
  const { status } = frame;
  return status >= 200 && status < 300
    ? { ok: true, status, ...timed }
    : { ok: false, status, error: `The endpoint answered ${status}.`, ...timed };
}
