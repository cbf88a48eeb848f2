// @ts-check
// Process groups: signalling one, telling whether it still runs, and reading a process's parent and group.
// Note: plain JavaScript because run-in-group.js imports it, and that file runs in a child `node` with no loader.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Whether children get process groups of their own (POSIX); on Windows `detached` would open a console instead. */
export const OWN_GROUPS = process.platform !== 'win32';

/**
 * Sends `name` to the process group `pid` leads, or to the process alone when it leads none; ignores ESRCH.
 * @param {number} pid
 * @param {NodeJS.Signals} name
 */
export function signalGroup(pid, name) {
  for (const target of OWN_GROUPS ? [-pid, pid] : [pid]) {
    try {
      process.kill(target, name);
      return;
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'ESRCH') throw err;
    }
  }
}

/**
 * True while a process of group `pgid` other than `except` is running; zombies, which only wait to be reaped, do not
 * count. Without /proc, `except` is not told apart and the answer is true while the group exists.
 * @param {number} pgid
 * @param {number} [except]
 */
export function groupAlive(pgid, except) {
  try {
    process.kill(OWN_GROUPS ? -pgid : pgid, 0);
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
  // Note: an init that does not reap orphans (as in some containers) leaves zombies in the group for good.
  if (!existsSync('/proc/self/stat')) return true;
  return readdirSync('/proc').some((name) => {
    const stat = /^\d+$/.test(name) ? procStat(Number(name)) : undefined;
    return stat?.pgrp === pgid && stat.state !== 'Z' && Number(name) !== except;
  });
}

/**
 * State, parent and process group of `pid`, from /proc (Linux) or ps; undefined when it is gone.
 * @param {number} pid
 * @returns {{ state: string, ppid: number, pgrp: number } | undefined}
 */
export function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state = '', ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid), pgrp: Number(pgrp) };
  } catch {
    if (existsSync('/proc/self/stat')) return undefined;
  }
  const ps = spawnSync('ps', ['-o', 'stat=,ppid=,pgid=', '-p', String(pid)], { encoding: 'utf8' });
  const [state, ppid, pgrp] = ps.status === 0 ? ps.stdout.trim().split(/\s+/) : [];
  return state === undefined ? undefined : { state: state.slice(0, 1), ppid: Number(ppid), pgrp: Number(pgrp) };
}
