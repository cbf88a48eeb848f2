// The users' README as a new merchant developer follows it: the packed tarball is installed into an empty directory,
// and every file the README shows is created and every command it shows is run there, as written and in order.
// The rules (markers for skipped and background blocks, file names, ports) are in CONTRIBUTING.md.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { packedTarball } from './pack.js';
import { readmeSteps, yamlRunCommands, type ReadmeCommand } from './readme-blocks.js';
import { freeReadmePorts, moveCommandPorts, movePortsIn, portEnv, portFree, type PortMap } from './readme-ports.js';

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const steps = readmeSteps(readme);
const commands = steps.flatMap((step) => (step.kind === 'command' ? [step] : []));
const COMMAND_MS = 240_000;
const READY_MS = 60_000;

let dir: string;
let project: string;
/** Where the README's default ports are moved to in this run (readme-ports.ts). */
let ports: PortMap;
// Note: the user's shell, without anything of this test run that the README's commands read.
const env: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([name]) => !/^(MERCHANT_PAYMENTS_|PAYMENTS_|WEBHOOK_SECRET$|npm_(?!config_(registry|cache|userconfig)$))/.test(name),
  ),
);
Object.assign(env, { NO_UPDATE_NOTIFIER: '1', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_prefer_offline: 'true' });

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

interface Running {
  child: ChildProcess;
  section: string;
  script: string;
  output: () => string;
  finished: Promise<Finished>;
}

const background: Running[] = [];

/** Starts a block in bash, in a process group of its own so that it can be stopped with everything it started. */
function start(script: string): Running & { firstLine: Promise<void> } {
  const child = spawn('bash', ['-e', '-c', script], { cwd: project, env: { ...env, ...portEnv(ports) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stdoutSeen = '';
  let lineSeen: () => void = () => {};
  const firstLine = new Promise<void>((resolve) => (lineSeen = resolve));
  // Note: kept bounded, whatever a command prints (the conformance kit's report is long).
  const keep = (text: string) => (output = (output + text).slice(-200_000));
  child.stdout!.on('data', (chunk: Buffer) => {
    keep(chunk.toString());
    stdoutSeen += chunk.toString();
    if (stdoutSeen.includes('\n')) lineSeen();
  });
  child.stderr!.on('data', (chunk: Buffer) => keep(chunk.toString()));
  const finished = new Promise<Finished>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, output })));
  return { child, section: '', script, output: () => output, finished, firstLine };
}

/** Stops a block's whole process group and waits for it to end. */
async function stop(running: Running): Promise<Finished> {
  try {
    process.kill(-running.child.pid!, 'SIGTERM');
  } catch {
    // Note: the group is gone already.
  }
  const killer = setTimeout(() => {
    try {
      process.kill(-running.child.pid!, 'SIGKILL');
    } catch {
      // Note: it ended on SIGTERM.
    }
  }, 10_000);
  const result = await running.finished;
  clearTimeout(killer);
  return result;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

async function takenPorts(): Promise<number[]> {
  const moved = Object.values(ports);
  const free = await Promise.all(moved.map(portFree));
  return moved.filter((_, i) => !free[i]);
}

/** Stops the background servers of sections other than `section`, in the reverse order of their start. */
async function stopBackgroundOutside(section: string | undefined): Promise<void> {
  for (const running of [...background].reverse()) {
    if (running.section === section) continue;
    background.splice(background.indexOf(running), 1);
    await stop(running);
  }
}

beforeAll(async () => {
  ports = await freeReadmePorts();
  dir = mkdtempSync(path.join(os.tmpdir(), 'readme-'));
  const { tarball } = await packedTarball();
  project = path.join(dir, 'project');
  mkdirSync(project);
  // The file the API team hands out, put in the project as the README says.
  copyFileSync(tarball, path.join(project, path.basename(tarball)));
}, 300_000);

afterAll(async () => {
  await stopBackgroundOutside(undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('README.md, followed in a new project that installs the packed tarball', () => {
  it('skips only the commands that cannot run before publishing, and runs the tarball install in their place', () => {
    const skipped = commands.filter((command) => command.mode === 'skip').map((command) => command.script.trim());
    expect(skipped).toEqual([
      expect.stringMatching(/^npm ci\nnpm start .*\nnpm test .*\nnpm run test:all /),
      'npm install @merchant-payments/contract',
      'npm ci && npm pack',
    ]);
    expect(commands.filter((command) => command.mode === 'run').map((command) => command.script.trim())).toContain(
      'npm install ./merchant-payments-contract-*.tgz',
    );
  });

  it('shows in its CI steps only commands it runs itself (npm ci aside)', () => {
    const ran = commands.filter((command) => command.mode !== 'skip').flatMap((command) => command.script.split('\n').map((line) => line.trim()));
    const ci = yamlRunCommands(readme).filter((command) => command !== 'npm ci');
    expect(ci.length).toBeGreaterThan(0);
    for (const command of ci) expect(ran, command).toContain(command);
  });

  it('runs every server it starts with `-- <command>` or as a marked background block, so nothing is left running', () => {
    for (const { script, mode } of commands) {
      if (mode !== 'run' || !/merchant-payments (mock|sandbox)\b/.test(script)) continue;
      expect(script, 'a mock or sandbox run in the foreground never returns').toMatch(/merchant-payments (mock|sandbox)\b[^\n]* -- /);
    }
  });

  for (const [index, step] of steps.entries()) {
    if (step.kind === 'file') {
      it(`${index + 1}. creates ${step.name}`, () => {
        writeFileSync(path.join(project, step.name), movePortsIn(step.content, ports));
      });
      continue;
    }
    const title = `${index + 1}. ${step.mode === 'skip' ? 'skips' : step.mode === 'background' ? 'starts' : 'runs'}: ${step.script.trim()}`;
    if (step.mode === 'skip') {
      it.skip(`${title} (${step.reason})`, () => {});
      continue;
    }
    it(title, async () => {
      await stopBackgroundOutside(step.section);
      if (step.mode === 'background') await startBackground(step);
      else await runToTheEnd(step);
    }, COMMAND_MS + READY_MS);
  }

  it('leaves nothing running: every port the README uses is free again', async () => {
    await stopBackgroundOutside(undefined);
    expect(await takenPorts()).toEqual([]);
  });
});

async function runToTheEnd(command: ReadmeCommand): Promise<void> {
  const running = start(moveCommandPorts(command.script, ports));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stop(running);
  }, COMMAND_MS);
  const { code, signal, output } = await running.finished;
  clearTimeout(timer);
  if (timedOut) throw new Error(`${command.script.trim()} timed out after ${COMMAND_MS / 1000} s:\n${output}`);
  expect({ code, signal }, output).toEqual({ code: 0, signal: null });
}

async function startBackground(command: ReadmeCommand): Promise<void> {
  const script = moveCommandPorts(command.script, ports);
  const running = start(script);
  running.section = command.section;
  background.push(running);
  const port = /--port (\d+)/.exec(script)?.[1];
  const deadline = Date.now() + READY_MS;
  // Ready: the port its --port names accepts connections or, when it names none, it printed its first line.
  const ready = (async (): Promise<'ready' | 'timeout'> => {
    if (!port) await running.firstLine;
    while (port && !(await accepts(Number(port)))) {
      if (Date.now() > deadline) return 'timeout';
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return 'ready';
  })();
  const ended = running.finished;
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), READY_MS).unref());
  const outcome = await Promise.race([ready, ended, timeout]);
  if (outcome === 'ready') return;
  background.splice(background.indexOf(running), 1);
  const result = outcome === 'timeout' ? await stop(running) : outcome;
  throw new Error(`${command.script.trim()} did not start serving (${outcome === 'timeout' ? `timed out after ${READY_MS / 1000} s` : `exited ${result.code}`}):\n${result.output}`);
}
