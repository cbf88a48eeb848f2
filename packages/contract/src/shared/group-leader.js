// @ts-check
// Leads the process group of a command run by run-in-group.js, from inside it: runs the command as its own child (in
// this group), exits with its code, and takes the whole group down when run-in-group.js's lifeline on fd 3 closes.
//   node group-leader.js <name> <command> [args...]   (spawned by run-in-group.js, detached, with fd 3 a pipe)
// Note: run-in-group.js stays outside the group so that it can wait for the group to empty; but then nothing inside
// the group noticed when it was SIGKILLed, and the command and its children lived on. The kernel closes the pipe
// however run-in-group.js ends, so this process, which shares the command's group, can always stop it.
// Note: plain JavaScript because it runs as a child `node` of the compiled package and of the sources alike, with no loader.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { constants } from 'node:os';
import { groupAlive, OWN_GROUPS } from './process-group.js';

/** How long the group has after SIGTERM before it is killed. */
const GRACE_MS = 2000;
const [name, command = '', ...args] = process.argv.slice(2);
let stopping = false;

// Note: SIGINT, SIGTERM and SIGHUP reach this group from run-in-group.js, for the command; this process waits for
// the command to end instead, so that its code is the one passed on.
for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) process.on(sig, () => {});

const child = spawn(command, args, { stdio: 'inherit' });
child.once('error', (error) => {
  console.error(`${name}: could not run ${command}: ${error.message}`);
  process.exit(127);
});
// Note: while the group is being stopped, the command's end does not end this process: what it started may still be
// running, and this process is the one left to SIGKILL it.
child.once('exit', (code, sig) => stopping || process.exit(code ?? 128 + (sig ? constants.signals[sig] : 0)));

const lifeline = new net.Socket({ fd: 3, readable: true, writable: false });
lifeline.on('end', stopGroup);
lifeline.on('close', stopGroup);
lifeline.on('error', stopGroup);
lifeline.resume();

/** SIGTERM to the group (this process ignores it), then SIGKILL to whatever is left after the grace period, this process included. */
async function stopGroup() {
  if (stopping) return;
  stopping = true;
  if (!OWN_GROUPS) {
    child.kill('SIGTERM');
    process.exit(1);
  }
  signal('SIGTERM');
  const deadline = Date.now() + GRACE_MS;
  while (groupAlive(process.pid, process.pid) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  signal('SIGKILL');
}

/** @param {NodeJS.Signals} sig */
function signal(sig) {
  try {
    process.kill(-process.pid, sig);
  } catch {
    // Note: ESRCH: this process leads no group (not started detached), so only the command is signalled.
    child.kill(sig);
  }
}
