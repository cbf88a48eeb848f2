// The error of options that cannot be run, in a module of its own so that run.ts and the stages can both throw it.

/** Thrown for options that cannot be run: an unknown stage, a missing credential or webhook secret, a bad bound. */
export class ConformanceUsageError extends Error {
  override name = 'ConformanceUsageError';
}
