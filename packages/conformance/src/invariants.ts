// The invariants stage: fast-check's model-based run (fc.commands, fc.asyncModelRun) of command sequences over the
// lifecycle tables (commands.ts), every answer judged by the contract and by the model (kit.ts), the lists and the
// balance checked after each sequence (lists.ts). Sequences are drawn from `seed` until the request budget is spent; a
// failing one is shrunk, and the checks it failed name it with the seed that replays it. With --sandbox the kit moves
// the clock and picks outcomes, so every row happens; the rows it could not reach are listed, never passed silently.
import fc from 'fast-check';
import { commandsOf, SequenceFailed, type Model } from './commands.js';
import { createKit, OutOfBudget, type InvariantsOptions, type Kit } from './kit.js';
import { listsAndBalance } from './lists.js';
import { judgeLogged, rowName, type Row } from './transitions.js';

/** Commands of one sequence at most: enough for several journeys, few enough to shrink quickly. */
const MAX_COMMANDS = 24;

/** Every status change the sandbox's event log holds for the kit's objects, each judged as a row with its trigger. */
async function eventLog(kit: Kit, options: InvariantsOptions): Promise<void> {
  const control = options.control;
  if (!control || kit.clock === undefined) return;
  for (const object of kit.created) {
    const { data, response } = await control.GET('/_sandbox/events', {
      params: { query: { object_id: object.id, limit: 100 } },
    });
    const evidence = options.evidence({
      method: 'GET',
      path: '/_sandbox/events',
      query: [
        ['object_id', object.id],
        ['limit', '100'],
      ],
      headers: {},
    });
    kit.check(
      'listEvents',
      'sandbox_control',
      response.ok && data !== undefined,
      `GET /_sandbox/events?object_id=${object.id} answered ${response.status}`,
      evidence,
    );
    if (!response.ok || !data) return;
    for (const change of [...(Array.isArray(data.data) ? data.data : [])].reverse()) {
      const event = change.event.data as Record<string, unknown>;
      const reason = 'reason_code' in event ? (event.reason_code as string | null) : undefined;
      kit.noteChange(
        object,
        judgeLogged(kit.rows, { kind: object.kind, from: change.from, to: change.to, trigger: change.trigger, reason }),
        evidence,
      );
    }
  }
}

/** Why a row was not seen, so that none passes silently. */
function unreached(kit: Kit, row: Row, ended: string): string {
  const { kind } = row;
  const refused = kit.refusals.get(kind);
  if (kit.sandbox) return `not reached: ${ended}${refused ? ` (${refused})` : ''}`;
  if (refused && !kit.created.some((object) => object.kind === kind))
    return `${refused}, so no ${kind} could be followed`;
  if (row.trigger.startsWith('clock:'))
    return `the server's clock makes this change; with --sandbox the kit moves the clock (POST /_sandbox/clock/advance) and picks the outcome`;
  return `no ${kind} reached ${row.from ?? 'creation'} through the API alone; with --sandbox the clock takes it there`;
}

/** Failing sequences that fast-check shrinks, each with half the budget for it; later failures are recorded as they are. */
const SHRUNK = 2;
/** Sequences of one fc.check: the budget ends the stage within a few of them, so no more are drawn past it. */
const RUNS = 10;

const keyOf = (failure: { subject: string; check: string }) => `${failure.subject}\u0000${failure.check}`;

/**
 * Runs the stage: fc.check after fc.check of command sequences, from `seed` on, until the budget is spent. When a
 * sequence fails a check that no earlier sequence was shrunk for, fast-check shrinks it, and the checks it failed say
 * what it was.
 */
export async function invariants(options: InvariantsOptions): Promise<void> {
  const kit = createKit(options);
  // Note: the lists may be too long to read after every sequence; each thing left out is listed once.
  const notes = new Map<string, string>();
  const note = (subject: string, reason: string) => void notes.set(subject, reason);
  const shrunk = new Set<string>();
  let shrinks = 0;
  // Note: the lists and the balance once before any sequence, so that even a budget too small for a whole sequence checks them.
  await listsAndBalance(kit, note);
  for (let check = 0; kit.live(); check += 1) {
    /** The checks the first failing sequence failed; while set, fast-check is shrinking it. */
    let target: Set<string> | undefined;
    let inLists = true;
    let shortest = '';
    kit.counts = (failure) => (target ? target.has(keyOf(failure)) : shrinks < SHRUNK && !shrunk.has(keyOf(failure)));
    // Note: the tenant is never reset (POST /_sandbox/reset), even with --sandbox: the other stages share it (the
    // webhooks stage registers its endpoint there first), and the credentials may name a tenant someone keeps. So a
    // sequence's model holds only the objects it created, and the balance is checked against everything listed.
    const property = fc.asyncProperty(
      fc.commands([commandsOf(kit)], { maxCommands: MAX_COMMANDS, size: 'max', disableReplayLog: true }),
      async (commands) => {
        if (!kit.live()) return;
        const mark = kit.failed.length;
        const model: Model = { objects: [], ran: [] };
        let inCommands = true;
        try {
          await fc.asyncModelRun(() => ({ model, real: kit }), commands);
          inCommands = false;
          if (!target || inLists) await listsAndBalance(kit, note);
          if (kit.failedSince(mark)) throw new SequenceFailed();
        } catch (error) {
          if (error instanceof SequenceFailed) {
            if (!target) {
              target = new Set(
                kit.failed
                  .slice(mark)
                  .filter((failure) => kit.counts?.(failure))
                  .map(keyOf),
              );
              inLists = !inCommands;
              kit.shrink = Math.ceil(options.budget / 2);
            }
            shortest = model.ran.join(' → ');
            throw error;
          }
          // Note: the budget ends a sequence unjudged; anything else (the server stopped answering, the deadline) ends the stage.
          if (!(error instanceof OutOfBudget)) kit.stopped = error instanceof Error ? error : new Error(String(error));
        }
      },
    );
    // Note: each sequence sends a request at least, so the loop ends.
    const details = await fc.check(property, { seed: options.seed + check, numRuns: RUNS });
    kit.shrink = undefined;
    if (kit.stopped !== undefined) throw kit.stopped;
    if (!details.failed || !target) continue;
    shrinks += 1;
    const text = `the shortest failing command sequence fast-check found: ${shortest || '(none)'}${inLists ? ', then the lists and the balance' : ''}; --only invariants --seed ${options.seed} runs it again`;
    for (const key of target) {
      shrunk.add(key);
      options.annotate(...(key.split('\u0000') as [string, string]), text);
    }
  }
  kit.counts = undefined;
  await eventLog(kit, options);
  const ended =
    shrinks > 0
      ? `the command sequences of seed ${options.seed} stopped to shrink the ones that failed`
      : `the command sequences of seed ${options.seed} did not produce this change within ${options.budget} requests`;
  for (const row of kit.rows.filter((candidate) => !kit.exercised.has(rowName(candidate))))
    options.skip(rowName(row), unreached(kit, row, ended));
  if (kit.refunds === 0)
    options.skip(
      'refundPayment',
      'no payment the kit saw was refunded (a refund needs a succeeded payment), so no refund was compared with its processed amount',
    );
  for (const [subject, reason] of notes) options.skip(subject, reason);
  options.progress('transitions');
}
