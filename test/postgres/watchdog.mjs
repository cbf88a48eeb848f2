// @ts-check
// Started by cluster.ts with a pipe as stdin: when that pipe closes (the test run ended, however it ended), stops the
// postmaster whose pid is argv[2] and removes the cluster's folder, argv[3].
// Note: plain JavaScript in a bare `node`, so that it starts in milliseconds and needs nothing from the checkout.
import { readFileSync, rmSync } from 'node:fs';

const [pidText, dir] = process.argv.slice(2);
const pid = Number(pidText);
const GRACE_MS = 5000;

/** True while `pid` is still the postmaster of `dir` (not a zombie, not a new process that reused the pid). */
function ours() {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return false;
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(String(dir));
  } catch {
    return false;
  }
}

let done = false;
async function cleanUp() {
  if (done) return;
  done = true;
  // Note: SIGQUIT is PostgreSQL's immediate shutdown; its backends leave with it.
  if (ours()) process.kill(pid, 'SIGQUIT');
  const deadline = Date.now() + GRACE_MS;
  while (ours() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (ours()) process.kill(pid, 'SIGKILL');
  rmSync(String(dir), { recursive: true, force: true });
  process.exit(0);
}

// Note: a Ctrl-C or a signal to the test run's group must not end this process before it has cleaned up.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void cleanUp());
process.stdin.on('end', cleanUp);
process.stdin.on('close', cleanUp);
process.stdin.on('error', cleanUp);
process.stdin.resume();
