// The merchant budget: on each instance, at most `concurrency` requests of one merchant (an issued or open tenant and
// its test tenants) do store work at once; the rest wait in that merchant's own queue, first come first served, at
// most `queueLength` of them and each for at most `queueMs`, then get the contract's 429. A merchant that floods the
// sandbox waits behind itself, never in front of another merchant. Only merchants with requests in flight are kept.
import { httpProblem, type ProblemInput } from './problem.js';

/** The budget's settings (the `merchantConcurrency`, `merchantQueueMs` and `merchantQueueLength` options). */
export interface BudgetSettings {
  /** Requests of one merchant doing store work at once, on this instance. */
  concurrency: number;
  /** The longest a request waits for its turn, in ms; then 429. */
  queueMs: number;
  /** The most requests of one merchant waiting at once; one more gets 429 at once. */
  queueLength: number;
}

/** A request's turn: `release` once its work is done (more than once is harmless), or the 429's problem and headers. */
export type BudgetTurn =
  { ok: true; release(): void } | { ok: false; problem: ProblemInput; headers: Record<string, string> };

/** The per-merchant budgets of one instance. */
export interface MerchantBudget {
  /** Waits for the merchant's turn; a refusal when its queue is full or the wait passes `queueMs`. */
  enter(merchant: string): Promise<BudgetTurn>;
  /** How many merchants have requests in flight or waiting (for the bound's test). */
  readonly size: number;
  readonly settings: BudgetSettings;
}

interface Waiter {
  grant(turn: BudgetTurn): void;
  timer: ReturnType<typeof setTimeout>;
}

interface Entry {
  running: number;
  /** Oldest first; short (at most `queueLength`), so a shift costs little. */
  waiting: Waiter[];
}

/** The merchant budgets of `settings`. */
export function createMerchantBudget(settings: BudgetSettings): MerchantBudget {
  const { concurrency, queueMs, queueLength } = settings;
  const entries = new Map<string, Entry>();
  const retryAfter = Math.max(1, Math.ceil(queueMs / 1000));

  const refused = (why: string): BudgetTurn => ({
    ok: false,
    problem: httpProblem(
      'rate_limited',
      `This merchant already has ${concurrency} requests at work on this instance and ${why}; retry after ${retryAfter} s (Retry-After). Its test tenants share the budget.`,
    ),
    headers: {
      'retry-after': String(retryAfter),
      'ratelimit-policy': `"concurrency";q=${concurrency}`,
      ratelimit: `"concurrency";r=0;t=${retryAfter}`,
    },
  });

  const granted = (merchant: string, entry: Entry): BudgetTurn => {
    let released = false;
    return {
      ok: true,
      release() {
        if (released) return;
        released = true;
        // Note: the turn passes straight to the oldest waiter, so a newcomer never overtakes the queue.
        const next = entry.waiting.shift();
        if (next) {
          clearTimeout(next.timer);
          next.grant(granted(merchant, entry));
          return;
        }
        entry.running -= 1;
        if (entry.running === 0) entries.delete(merchant);
      },
    };
  };

  return {
    settings,
    get size() {
      return entries.size;
    },
    enter(merchant) {
      let entry = entries.get(merchant);
      if (!entry) entries.set(merchant, (entry = { running: 0, waiting: [] }));
      if (entry.running < concurrency) {
        entry.running += 1;
        return Promise.resolve(granted(merchant, entry));
      }
      if (entry.waiting.length >= queueLength)
        return Promise.resolve(refused(`${queueLength} waiting, the most its queue holds`));
      const queue = entry.waiting;
      return new Promise((grant) => {
        const waiter: Waiter = {
          grant,
          timer: setTimeout(() => {
            queue.splice(queue.indexOf(waiter), 1);
            grant(refused(`this one waited ${queueMs} ms, the longest a request waits for its turn`));
          }, queueMs),
        };
        queue.push(waiter);
      });
    },
  };
}
