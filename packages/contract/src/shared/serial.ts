// Jobs keyed by tenant, each key's run one after another and different keys' side by side (a promise queue per key).

/** Per-key queues of jobs. */
export interface SerialQueues {
  /** Runs `job` once the key's earlier jobs have settled; resolves or rejects as it does. */
  run<T>(key: string, job: () => T | Promise<T>): Promise<T>;
  /** Whether the key has a job queued or running. */
  busy(key: string): boolean;
}

/** Empty queues; a key's queue is forgotten once its last job settles. */
export function createSerialQueues(): SerialQueues {
  const queues = new Map<string, Promise<unknown>>();
  return {
    run(key, job) {
      const result = (queues.get(key) ?? Promise.resolve()).then(job);
      const settled = result.catch(() => {});
      queues.set(key, settled);
      void settled.then(() => queues.get(key) === settled && queues.delete(key));
      return result;
    },
    busy: (key) => queues.has(key),
  };
}
