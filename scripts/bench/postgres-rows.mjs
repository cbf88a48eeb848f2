// The postgres section's rows, in the shape scripts/bench/table.mjs prints.
import { summarize } from './stats.mjs';

export const SECTION = 'postgres';
export const MB = 2 ** 20;

/** A row of the section: `summary` is stats.mjs's { median, min, max, runs }; `extra` its ratio, baseline, target and met. */
export const row = (name, unit, summary, extra = {}) => ({ section: SECTION, name, unit, ...summary, ...extra });

/** The summary of a value measured once. */
export const once = (value) => summarize([value]);

/** A number as the rows write it (1,000,000). */
export const count = (n) => n.toLocaleString('en-US');
