// Noticing that whoever launched this process is gone, so a command run from npm or npx never lingers.
import { procStat } from './process-group.js';

/**
 * Calls `onOrphaned` once whoever launched this process is gone: its parent, or, under npm, the npm above the
 * `sh -c` npm runs scripts in. Polls every half second.
 */
export function watchParent(onOrphaned: () => void, intervalMs = 500): void {
  const parent = process.ppid;
  // Note: npm runs a script as `sh -c "<script>"`, which does not exec it: when npm is SIGKILLed the shell lives
  // on, so our parent stays the same and only the shell's parent changes.
  const grandparent = process.env.npm_lifecycle_event === undefined ? undefined : procStat(parent)?.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent && (grandparent === undefined || procStat(parent)?.ppid === grandparent)) return;
    clearInterval(timer);
    onOrphaned();
  }, intervalMs);
  timer.unref();
}
