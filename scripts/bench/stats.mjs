// Repeated, interleaved measurement and the summary every benchmark row uses: median, min, max, runs.

/** Median, min and max of a list of numbers. */
export function summarize(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted.at(-1), runs: sorted.length };
}

/**
 * Runs each contender `runs` times, round-robin (so drift on a noisy machine hits all alike), after
 * `warmup` unrecorded rounds. `contenders` maps a name to an async function that returns one sample.
 * Resolves to a map of name to its summary.
 */
export async function interleaved(contenders, { runs, warmup = 1 }) {
  const samples = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));
  for (let round = 0; round < warmup + runs; round++) {
    // Note: rotate the starting contender each round so none always runs first (cold) or last.
    const names = Object.keys(contenders);
    const order = names.slice(round % names.length).concat(names.slice(0, round % names.length));
    for (const name of order) {
      const sample = await contenders[name]();
      if (round >= warmup) samples[name].push(sample);
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summarize(values)]));
}

/** Milliseconds taken by `fn()`. */
export async function timeMs(fn) {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
