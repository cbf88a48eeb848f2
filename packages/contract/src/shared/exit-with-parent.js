// @ts-check
// Preloaded with `node --import` into the children spawnTiedNode starts, each the leader of its own process group:
// when the parent closes our stdin, take the group down, this process and anything it started.
// Note: the kernel closes the pipe whenever the parent dies (Ctrl-C, SIGKILL, crash), so the group cannot outlive it;
// the stdin handle is unref'd so it never keeps the child alive by itself.
// Note: plain JavaScript, since each child loads it into a bare `node` (Prism included), from src/ as from dist/.
const GRACE_MS = 2000;
let stopping = false;

function stopGroup() {
  if (stopping) return;
  stopping = true;
  try {
    process.kill(-process.pid, 'SIGTERM');
  } catch {
    process.exit(0); // Note: ESRCH: this process leads no group (started some other way), so it exits alone.
  }
  // Note: reached only when this process handles SIGTERM itself; a group still running after the grace period is killed.
  setTimeout(() => process.kill(-process.pid, 'SIGKILL'), GRACE_MS).unref();
}

process.stdin.on('end', stopGroup);
process.stdin.on('close', stopGroup);
process.stdin.on('error', stopGroup);
process.stdin.resume();
process.stdin.unref?.();
