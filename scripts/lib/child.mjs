// Child processes tied to this one: spawned with a stdin pipe, stopped by pid, never left behind.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';

const preload = pathToFileURL(fileURLToPath(new URL('./exit-with-parent.mjs', import.meta.url))).href;
const live = new Set();

// Note: 'exit' listeners run synchronously on any normal exit, including process.exit() in a signal
// handler; a SIGKILLed parent is covered by the stdin pipe that exit-with-parent.mjs watches.
process.on('exit', () => {
  for (const child of live) signal(child.pid, 'SIGTERM');
});

/** Spawns `node <script> ...args` that exits when this process dies; stdout/stderr are pipes. */
export function spawnTiedNode(script, args = [], options = {}) {
  const child = spawn(process.execPath, ['--import', preload, script, ...args], {
    ...options,
    stdio: ['pipe', 'pipe', 'pipe'],
    shell: false,
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  child.stdin.on('error', () => {}); // Note: EPIPE when the child is already gone is harmless.
  return child;
}

/** True once the child has exited (and been reaped). */
export function hasExited(child) {
  return child.exitCode !== null || child.signalCode !== null;
}

/** Sends SIGTERM by pid, then SIGKILL after `graceMs`; resolves once the child has exited. */
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

function signal(pid, name) {
  try {
    process.kill(pid, name);
  } catch (err) {
    if (err.code !== 'ESRCH') throw err;
  }
}

/** Calls `onOrphaned` once this process's parent has exited (its ppid changed); polls every second. */
export function watchParent(onOrphaned, intervalMs = 1000) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, intervalMs);
  timer.unref();
}
