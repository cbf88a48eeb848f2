// What a run with `stateless` (--stateless) judges: only what a server that keeps no state, such as the contract mock
// (Prism), can pass. Everything else is named in the report's `skipped` with why, so that nothing passes silently.
import type { Variant } from '@merchant-payments/contract/internal/validation/index.js';
import { CHECKS, needsState, type CheckInfo } from './registry.js';
import { WHOLE_STAGE, type CheckResult, type Skipped, type StageName } from './types.js';

/**
 * The shipped workflows a server without state can pass, per variant, with why. Each of their steps is one request
 * that the contract refuses whatever the server holds; every other workflow uses what an earlier step created, or needs
 * the server to know its objects or to remember a credential.
 */
export const STATELESS_WORKFLOWS: Record<Variant, Record<string, string>> = {
  a: {
    'auth-missing-credentials': 'each step is one request without credentials, which gets 401 on any server',
    'auth-wrong-credentials':
      'each step is one request with a Basic credential where the contract asks for a bearer token, which gets 401 on any server',
  },
  b: {
    'auth-missing-credentials': 'each step is one request without credentials, which gets 401 on any server',
  },
};

/** What starts the reason of everything a stateless run leaves out. */
const LEFT_OUT = 'needs a server that keeps state (left out by --stateless)';

/** Why a workflow not in STATELESS_WORKFLOWS is left out of a stateless run; `about` is what the workflow checks. */
export const workflowNeedsState = (about: string) => `${LEFT_OUT}: ${about}`;

/** Why the webhooks stage does not run in a stateless run. */
export const WEBHOOKS_NEED_STATE =
  `${LEFT_OUT}: a server that keeps no state sends no webhooks (the contract mock, Prism, ignores the ` +
  "contract's webhooks section), and every event follows a status change of an object the server keeps";

/** Whether a stateless run left `item` out (rather than a stage finding it could not check it). */
export const leftOut = (item: Skipped) => item.reason.startsWith(LEFT_OUT);

/** How many of `skipped` a stateless run left out. */
export const leftOutCount = (skipped: readonly Skipped[]) => skipped.filter(leftOut).length;

/** The stages of `stages` a stateless run runs: all but webhooks. */
export const statelessStages = (stages: readonly StageName[]) => stages.filter((stage) => stage !== 'webhooks');

/**
 * What a stateless run of `stages` leaves out, named before anything runs, so that the list does not depend on the
 * server's answers: the webhooks stage, and each check of the other stages that follows an object from one request
 * to the next. The flows stage names its own workflows (flows.ts).
 */
export function statelessSkips(stages: readonly StageName[]): Skipped[] {
  const stateful = Object.entries(CHECKS as Record<string, CheckInfo>).filter(([, info]) => info.needsState);
  return [
    ...(stages.includes('webhooks')
      ? [{ stage: 'webhooks' as const, subject: WHOLE_STAGE, reason: WEBHOOKS_NEED_STATE }]
      : []),
    ...stateful
      .filter(([, info]) => info.stage !== 'webhooks' && info.stage !== 'any' && stages.includes(info.stage))
      .map(([name, info]) => ({
        stage: info.stage as StageName,
        subject: name,
        reason: `${LEFT_OUT}: it follows an object from one request to the next (conformance-checks.md has its rule)`,
      })),
  ];
}

/**
 * Whether a stateless run keeps a check it recorded: not those the registry marks as needing state. The flows steps
 * recorded are those of STATELESS_WORKFLOWS, chosen before the run, so they stay.
 */
export const keptWhenStateless = (check: Pick<CheckResult, 'stage' | 'check'>) =>
  check.stage === 'flows' || !needsState(check);
