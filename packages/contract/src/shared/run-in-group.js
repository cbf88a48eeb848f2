// @ts-check
// Runs one command in a process group of its own and takes the whole group (the command and whatever it started)
// down when the command exits, or when the parent's lifeline on fd 3 closes: the parent died, even by SIGKILL.
// SIGINT, SIGTERM and SIGHUP sent to this process go to the group. Exits with the command's code (128 + n after
// signal n; 127 when it cannot be started). The group is led by group-leader.js, which runs the command and holds a
// lifeline from this process in turn, so that the group goes down when this process is SIGKILLed as well.
//   node run-in-group.js <name> <command> [args...]   (spawned by spawnInGroup in children.ts, with fd 3 a pipe)
// Note: plain JavaScript because it runs as a child `node` of the compiled package and of the sources alike, with no loader.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { constants } from 'node:os';
import { groupAlive, OWN_GROUPS } from './process-group.js';

/** How long the group has after SIGTERM before it is killed. */
const GRACE_MS = 2000;
const [name, command = '', ...args] = process.argv.slice(2);

const leader = fileURLToPath(new URL('./group-leader.js', import.meta.url));
// Note: detached makes group-leader.js the leader of a new group, which the command joins; this process stays outside
// it, so it can tell when the group is empty and still exit with the command's code, which the leader exits with.
const child = spawn(process.execPath, [leader, name ?? '', command, ...args], {
  stdio: ['inherit', 'inherit', 'inherit', 'pipe'],
  detached: OWN_GROUPS,
});
/** @type {import('node:stream').Writable} */ (child.stdio[3]).on('error', () => {});
/** @type {number | undefined} */
let status;
let ending = false;

child.once('error', (error) => {
  console.error(`${name}: could not start ${leader}: ${error.message}`);
  status = 127;
  end();
});
child.once('exit', (code, sig) => {
  status = code ?? 128 + (sig ? constants.signals[sig] : 0);
  end();
});
for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) process.on(sig, () => signalGroup(sig));

const lifeline = new net.Socket({ fd: 3, readable: true, writable: false });
lifeline.on('end', end);
lifeline.on('close', end);
lifeline.on('error', end);
lifeline.resume();

/** Stops what is left of the group (SIGTERM, then SIGKILL after the grace period), then exits. */
async function end() {
  if (ending) return;
  ending = true;
  if (child.pid !== undefined) {
    signalGroup('SIGTERM');
    const deadline = Date.now() + GRACE_MS;
    while (groupAlive(child.pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (groupAlive(child.pid)) signalGroup('SIGKILL');
  }
  process.exit(status ?? 1);
}

/** @param {NodeJS.Signals} sig */
function signalGroup(sig) {
  try {
    process.kill(OWN_GROUPS ? -Number(child.pid) : Number(child.pid), sig);
  } catch {
    // Note: ESRCH: the group is already empty.
  }
}
