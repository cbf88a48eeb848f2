// What the kernel says about a process, read from /proc: CPU time and resident memory, for the postgres section's CPU
// and memory rows (Linux only, as the section's cluster is).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** Kernel clock ticks a second, the unit of /proc/<pid>/stat's times. */
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The fields of /proc/<pid>/stat after the command name (field 3 on), or undefined once the process has gone. */
function statFields(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Note: the command name is in parentheses and may itself hold spaces and parentheses.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** User plus system CPU seconds of a process (all its threads) so far; 0 once it has exited. */
export function cpuSeconds(pid) {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS : 0;
}

/**
 * CPU seconds of a PostgreSQL cluster so far: the postmaster's own, its exited children's (which the postmaster reaps,
 * so the kernel adds them to its cutime and cstime) and its live children's (backends, writers, autovacuum).
 * Note: counting the reaped ones keeps a backend that ends between two readings from taking its CPU along with it.
 */
export function clusterCpuSeconds(postmaster) {
  const own = statFields(postmaster);
  if (!own) return 0;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS;
}

/** Resident set size of a process in bytes. */
export function rss(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) * 1024;
}
