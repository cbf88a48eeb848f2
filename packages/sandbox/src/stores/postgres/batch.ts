// A tenant's writers on one instance, batched: the commands that arrive while the tenant's queue is busy run together
// in its next turn, one after another on one view of the tenant, and commit in one write, as a database's group commit
// does. A merchant's parallel suite on one tenant then costs a transaction a batch rather than one a command, and its
// commands still never race each other. Each command keeps its own outcome: one that throws is taken out and the
// others run again without it, so nothing of it is written.
import type { TenantReads, TenantState } from '../../core/tenant.js';
import type { StoreSession } from '../types.js';
import { Flush, Miss } from './view.js';

/** How many commands one batch runs at most. */
export const MAX_BATCH = 16;

/** One command waiting in a batch. */
interface Job {
  work: (state: TenantState) => unknown;
  session: StoreSession | undefined;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** Thrown out of a batch's run when one of its commands threw: the batch writes nothing and runs again without it. */
class JobFailed extends Error {
  constructor(
    readonly index: number,
    readonly error: unknown,
  ) {
    super('A command of a batch threw.');
  }
}

/** What a batch's run answers: the outcomes of its first `results.length` commands (the rest wait for another run). */
interface BatchRun {
  results: unknown[];
}

/** Runs one batch's commands as one transaction of the store: `run` is the store's writer. */
type RunWriter = (work: (state: TenantState) => BatchRun, session: StoreSession) => Promise<BatchRun>;

/** The reads of every command of a batch, so that the batch's first statement reads them all. */
function mergedReads(jobs: readonly Job[]): TenantReads {
  const merged: Required<TenantReads> = { objects: [], keys: [], pages: [] };
  for (const { session } of jobs) {
    merged.objects.push(...(session?.reads?.objects ?? []));
    merged.keys.push(...(session?.reads?.keys ?? []));
    merged.pages.push(...(session?.reads?.pages ?? []));
  }
  return merged;
}

/**
 * One batch's commands on one state. A page read after an earlier command wrote (Flush) ends the batch before that
 * command, which runs in the next batch; the first command's Flush is the store's to handle, as for a command alone.
 */
function runJobs(jobs: readonly Job[], state: TenantState): BatchRun {
  const results: unknown[] = [];
  for (const [index, job] of jobs.entries()) {
    try {
      results.push(job.work(state));
    } catch (error) {
      if (error instanceof Miss || (error instanceof Flush && index === 0)) throw error;
      if (error instanceof Flush) break;
      throw new JobFailed(index, error);
    }
  }
  return { results };
}

/** Runs `jobs` in batches until each has its outcome. */
async function runBatch(jobs: Job[], write: RunWriter): Promise<void> {
  let live = jobs;
  while (live.length > 0) {
    const batch = live;
    try {
      const { results } = await write((state) => runJobs(batch, state), { reads: mergedReads(batch) });
      results.forEach((result, index) => batch[index]!.resolve(result));
      live = batch.slice(results.length);
    } catch (error) {
      if (error instanceof JobFailed) {
        batch[error.index]!.reject(error.error);
        live = batch.filter((_, index) => index !== error.index);
      } else {
        for (const job of batch) job.reject(error);
        live = [];
      }
    }
  }
}

/** The batches of one store: `submit` queues a command behind its tenant's work, with the others that arrive meanwhile. */
export function createBatches(
  enqueue: (tenant: string, job: () => Promise<void>) => Promise<void>,
  write: (tenant: string) => RunWriter,
) {
  // Note: only the batches waiting for their turn; a batch leaves when its turn comes, so the map holds only tenants
  // with commands queued.
  const forming = new Map<string, Job[]>();
  return {
    submit<T>(tenant: string, work: (state: TenantState) => T, session: StoreSession | undefined): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        // Note: the command reads afresh with its batch; what the request's earlier transactions read is stale by then.
        if (session) session.kept = undefined;
        const job: Job = { work, session, resolve, reject };
        const open = forming.get(tenant);
        if (open && open.length < MAX_BATCH) {
          open.push(job);
          return;
        }
        const batch = [job];
        forming.set(tenant, batch);
        void enqueue(tenant, async () => {
          if (forming.get(tenant) === batch) forming.delete(tenant);
          await runBatch(batch, write(tenant));
        }).catch((error: unknown) => {
          for (const waiting of batch) waiting.reject(error);
        });
      });
    },
  };
}
