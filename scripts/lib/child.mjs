// Child processes tied to this one: each leads a process group of its own, is stopped with that whole group, and
// never outlives this process, however it ends.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';

const preload = pathToFileURL(fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url))).href;
const groupRunner = fileURLToPath(new URL('./run-in-group.mjs', import.meta.url));
const live = new Set();
/** Whether children get process groups of their own (POSIX); on Windows `detached` would open a console instead. */
export const OWN_GROUPS = process.platform !== 'win32';

// Note: 'exit' listeners run synchronously on any normal exit, including process.exit() in a signal
// handler; a SIGKILLed parent is covered by the lifeline pipe each child watches.
process.on('exit', () => {
  for (const child of live) signal(child.pid, 'SIGTERM');
});

function track(child) {
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/**
 * Spawns `node <script> ...args` as the leader of a new process group that goes down, whole, when this process dies
 * (the preload watches the stdin pipe); stdout/stderr are pipes.
 */
export function spawnTiedNode(script, args = [], options = {}) {
  // Note: detached makes the child a group (and session) leader: stopping it signals the group, so whatever it
  // started goes too, and a Ctrl-C on the terminal reaches it only through this process, once.
  const child = spawn(process.execPath, ['--import', preload, script, ...args], {
    ...options,
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
    detached: OWN_GROUPS,
  });
  child.stdin.on('error', () => {}); // Note: EPIPE when the child is already gone is harmless.
  track(child);
  return child;
}

/**
 * Runs any `command` (not only node) in a process group of its own, under run-in-group.mjs, which passes on SIGINT,
 * SIGTERM and SIGHUP, takes the whole group down when the command exits or this process dies (even by SIGKILL), and
 * exits with the command's code (128 + n after signal n; 127 when it cannot be started). stdin, stdout and stderr
 * are this process's; `name` prefixes the runner's own messages.
 */
export function spawnInGroup(name, command, args = [], options = {}) {
  // Note: the lifeline is fd 3, so the command keeps the terminal's stdin.
  const child = spawn(process.execPath, [groupRunner, name, command, ...args], {
    ...options,
    stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
    shell: false,
    detached: OWN_GROUPS,
  });
  child.stdio[3].on('error', () => {});
  track(child);
  return child;
}

/** True once the child has exited (and been reaped). */
export function hasExited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends SIGTERM to the child's process group, then SIGKILL after `graceMs`; resolves once the child has exited. */
export function stopChild(child, graceMs = 5000) {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => signal(child.pid, 'SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    signal(child.pid, 'SIGTERM');
  });
}

/** Keeps the last `max` lines written to the child's stdout and stderr, optionally echoing them. */
export function collectOutput(child, { max = 40, echo } = {}) {
  const lines = [];
  const push = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (line.trim() === '') continue;
      lines.push(line);
      if (lines.length > max) lines.shift();
      echo?.(line);
    }
  };
  child.stdout.on('data', push);
  child.stderr.on('data', push);
  return () => lines.join('\n');
}

/** Returns `count` distinct free TCP ports on `host`, all held open until every one is chosen. */
export async function freePorts(count, host = '127.0.0.1') {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listen(0, host));
    return servers.map((s) => s.address().port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

/** Returns a free TCP port on `host` (listen on port 0, read it, close). */
export async function freePort(host = '127.0.0.1') {
  const [port] = await freePorts(1, host);
  return port;
}

/** Throws a clear error if something already listens on host:port. */
export async function assertPortFree(port, host = '127.0.0.1') {
  try {
    const server = await listen(port, host);
    await new Promise((r) => server.close(r));
  } catch (err) {
    if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') throw err;
    throw new Error(`Port ${port} on ${host} is already in use (${err.code}); stop whatever holds it or choose another port.`);
  }
}

/** Resolves once host:port accepts a TCP connection; rejects if `isDead()` or after `timeoutMs`. */
export async function waitForPort(port, host, { timeoutMs = 30000, isDead = () => false } = {}) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (isDead()) throw new Error('process exited before it listened');
    if (await canConnect(port, host)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listened on ${host}:${port} within ${timeoutMs} ms`);
}

function canConnect(port, host) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function listen(port, host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => resolve(server));
  });
}

/** Sends `name` to the process group `pid` leads, or to the process alone when it leads none; ignores ESRCH. */
function signal(pid, name) {
  for (const target of OWN_GROUPS ? [-pid, pid] : [pid]) {
    try {
      process.kill(target, name);
      return;
    } catch (err) {
      if (err.code !== 'ESRCH') throw err;
    }
  }
}

/**
 * Calls `onOrphaned` once whoever launched this process is gone: its parent, or, under npm, the npm above the
 * `sh -c` npm runs scripts in. Polls every half second.
 */
export function watchParent(onOrphaned, intervalMs = 500) {
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

/** True while a process of group `pgid` is running; zombies, which only wait to be reaped, do not count. */
export function groupAlive(pgid) {
  try {
    process.kill(OWN_GROUPS ? -pgid : pgid, 0);
  } catch (err) {
    return err.code === 'EPERM';
  }
  // Note: an init that does not reap orphans (as in some containers) leaves zombies in the group for good.
  if (!existsSync('/proc/self/stat')) return true;
  return readdirSync('/proc').some((name) => {
    const stat = /^\d+$/.test(name) ? procStat(Number(name)) : undefined;
    return stat?.pgrp === pgid && stat.state !== 'Z';
  });
}

/** State, parent and process group of `pid`, from /proc (Linux) or ps; undefined when it is gone. */
function procStat(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid), pgrp: Number(pgrp) };
  } catch {
    if (existsSync('/proc/self/stat')) return undefined;
  }
  const ps = spawnSync('ps', ['-o', 'stat=,ppid=,pgid=', '-p', String(pid)], { encoding: 'utf8' });
  const [state, ppid, pgrp] = ps.status === 0 ? ps.stdout.trim().split(/\s+/) : [];
  return state === undefined ? undefined : { state: state[0], ppid: Number(ppid), pgrp: Number(pgrp) };
}
