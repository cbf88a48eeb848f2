// The postgres section's rows, in the shape scripts/bench/table.mjs prints.
import { summarize } from './stats.mjs';

export const SECTION = 'postgres';
export const MB = 2 ** 20;

/** A row of the section: `summary` is stats.mjs's { median, min, max, runs }; `extra` its ratio, baseline, target and met. */
export const row = (name, unit, summary, extra = {}) => ({ section: SECTION, name, unit, ...summary, ...extra });

/** The summary of a value measured once. */
export const once = (value) => summarize([value]);

/** `summary` with its median, min and max rounded to `digits` decimals. */
export const rounded = (summary, digits = 0) => {
  const round = (value) => Math.round(value * 10 ** digits) / 10 ** digits;
  return { ...summary, median: round(summary.median), min: round(summary.min), max: round(summary.max) };
};

/** A number as the rows write it (1,000,000). */
export const count = (n) => n.toLocaleString('en-US');
