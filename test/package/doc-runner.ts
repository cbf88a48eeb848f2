// Runs a document's shell blocks as a reader would, in a project folder: each `sh` block in its own `bash -e`, to the
// end, or as a server left running (a "background" block) until the runner stops it. The users' README test and the
// hosting guide's test share it; CONTRIBUTING.md ("The users' README and its test") states the rules.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import type { ReadmeStep } from './readme-blocks.js';

const COMMAND_MS = 240_000;
const READY_MS = 60_000;
/** How much of a command's output is kept, whatever it prints (the conformance kit's report is long). */
const KEPT_OUTPUT = 200_000;

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

interface Running {
  child: ChildProcess;
  /** The `## ` section of the document it was started in. */
  section: string;
  script: string;
  finished: Promise<Finished>;
  firstLine: Promise<void>;
}

/** A runner of shell blocks in `cwd` with `env`. */
export interface DocRunner {
  /** Runs a block to its end; fails the test unless it exits 0 within COMMAND_MS, with its output in the message. */
  run(script: string): Promise<void>;
  /**
   * Starts a server block and resolves once the port its `--port` names accepts connections (or, naming none, once it
   * printed its first line on stdout); rejects with its output when it exits or takes longer than READY_MS.
   */
  startBackground(script: string, section: string): Promise<void>;
  /** Stops the background servers of every section but `section` (all of them when undefined), newest first. */
  stopBackgroundOutside(section: string | undefined): Promise<void>;
}

/** The longest a test of one block may take: the command, or a server's start. */
export const BLOCK_MS = COMMAND_MS + READY_MS;

export function createDocRunner(cwd: () => string, env: () => NodeJS.ProcessEnv): DocRunner {
  const background: Running[] = [];

  // Note: a process group of its own, so that it can be stopped with everything it started.
  function start(script: string, section = ''): Running & { output: () => string } {
    const child = spawn('bash', ['-e', '-c', script], {
      cwd: cwd(),
      env: env(),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let stdoutSeen = '';
    let lineSeen: () => void = () => {};
    const firstLine = new Promise<void>((resolve) => (lineSeen = resolve));
    const keep = (text: string) => (output = (output + text).slice(-KEPT_OUTPUT));
    child.stdout.on('data', (chunk: Buffer) => {
      keep(chunk.toString());
      stdoutSeen += chunk.toString();
      if (stdoutSeen.includes('\n')) lineSeen();
    });
    child.stderr.on('data', (chunk: Buffer) => keep(chunk.toString()));
    const finished = new Promise<Finished>((resolve) =>
      child.once('close', (code, signal) => resolve({ code, signal, output })),
    );
    return { child, section, script, output: () => output, finished, firstLine };
  }

  async function stop(running: Running): Promise<Finished> {
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-running.child.pid!, name);
      } catch {
        // Note: the group is gone already.
      }
    };
    signal('SIGTERM');
    const killer = setTimeout(() => signal('SIGKILL'), 10_000);
    const result = await running.finished;
    clearTimeout(killer);
    return result;
  }

  return {
    async run(script) {
      const running = start(script);
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        void stop(running);
      }, COMMAND_MS);
      const { code, signal, output } = await running.finished;
      clearTimeout(timer);
      if (timedOut) throw new Error(`${script.trim()} timed out after ${COMMAND_MS / 1000} s:\n${output}`);
      expect({ code, signal }, output).toEqual({ code: 0, signal: null });
    },

    async startBackground(script, section) {
      const running = start(script, section);
      background.push(running);
      const port = /--port (\d+)/.exec(script)?.[1];
      const deadline = Date.now() + READY_MS;
      const ready = (async (): Promise<'ready' | 'timeout'> => {
        if (!port) await running.firstLine;
        while (port && !(await accepts(Number(port)))) {
          if (Date.now() > deadline) return 'timeout';
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return 'ready';
      })();
      const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), READY_MS).unref());
      const outcome = await Promise.race([ready, running.finished, timeout]);
      if (outcome === 'ready') return;
      background.splice(background.indexOf(running), 1);
      const result = outcome === 'timeout' ? await stop(running) : outcome;
      throw new Error(
        `${script.trim()} did not start serving (${outcome === 'timeout' ? `timed out after ${READY_MS / 1000} s` : `exited ${result.code}`}):\n${result.output}`,
      );
    },

    async stopBackgroundOutside(section) {
      for (const running of [...background].reverse()) {
        if (running.section === section) continue;
        background.splice(background.indexOf(running), 1);
        await stop(running);
      }
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

/** How testSteps runs a document's steps: where, with what changed in each file and script, and how long servers run. */
export interface StepSettings {
  folder: () => string;
  /** A file's text as written (ports moved, say). */
  file: (content: string) => string;
  /** A block's script as run. */
  script: (script: string) => string;
  /** Background servers run to the end of the document, rather than of their `## ` section. */
  serversToTheEnd?: boolean;
}

/** One test per step of a document, in its order: a file created, a block skipped, started in the background, or run. */
export function testSteps(steps: readonly ReadmeStep[], runner: DocRunner, settings: StepSettings): void {
  for (const [index, step] of steps.entries()) {
    if (step.kind === 'file') {
      it(`${index + 1}. creates ${step.name}`, () => {
        writeFileSync(path.join(settings.folder(), step.name), settings.file(step.content));
      });
      continue;
    }
    const verb = step.mode === 'skip' ? 'skips' : step.mode === 'background' ? 'starts' : 'runs';
    const title = `${index + 1}. ${verb}: ${step.script.trim()}`;
    if (step.mode === 'skip') {
      it.skip(`${title} (${step.reason})`, () => {});
      continue;
    }
    const section = settings.serversToTheEnd ? '' : step.section;
    it(
      title,
      async () => {
        if (!settings.serversToTheEnd) await runner.stopBackgroundOutside(section);
        const script = settings.script(step.script);
        if (step.mode === 'background') await runner.startBackground(script, section);
        else await runner.run(script);
      },
      BLOCK_MS,
    );
  }
}
