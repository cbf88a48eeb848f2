// Saving after every change without a write per change: while one save runs, the changes that come in wait for the
// next, which reads the state as it is when it starts. A caller's promise settles once a save that saw its change ends.

/** Requests saves; `save()` resolves once the state as it is now is on disk. */
export interface Saver {
  save(): Promise<void>;
  /** Resolves once no save is running or waiting. */
  idle(): Promise<void>;
}

/** A saver around `write`, which must read the state when it is called. */
export function createSaver(write: () => Promise<void>): Saver {
  let running: Promise<void> | undefined;
  let waiting: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const current = write().finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  };
  const save = (): Promise<void> => {
    if (!running) return start();
    // Note: the running save may have read the state before this change, so one more follows it; later changes join it.
    waiting ??= running.catch(() => {}).then(() => {
      waiting = undefined;
      return start();
    });
    return waiting;
  };
  return {
    save,
    async idle() {
      while (running || waiting) await (waiting ?? running)!.catch(() => {});
    },
  };
}
