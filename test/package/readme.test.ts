// The users' README as a new merchant developer follows it: the packed tarballs are installed into an empty directory,
// and every file the README shows is created and every command it shows is run there, as written and in order.
// The rules (markers for skipped and background blocks, file names, ports) are in CONTRIBUTING.md.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { createDocRunner, testSteps } from './doc-runner.js';
import { userShellEnv } from './npm-env.js';
import { packedTarballs } from './pack.js';
import { readmeSteps, yamlRunCommands } from './readme-blocks.js';
import { freeReadmePorts, moveCommandPorts, movePortsIn, portEnv, portFree, type PortMap } from './readme-ports.js';

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const steps = readmeSteps(readme);
const commands = steps.flatMap((step) => (step.kind === 'command' ? [step] : []));

let dir: string;
let project: string;
/** Where the README's default ports are moved to in this run (readme-ports.ts). */
let ports: PortMap;
const env = userShellEnv();

const runner = createDocRunner(
  () => project,
  () => ({ ...env, ...portEnv(ports) }),
);

async function takenPorts(): Promise<number[]> {
  const moved = Object.values(ports);
  const free = await Promise.all(moved.map(portFree));
  return moved.filter((_, i) => !free[i]);
}

beforeAll(async () => {
  ports = await freeReadmePorts();
  dir = mkdtempSync(path.join(os.tmpdir(), 'readme-'));
  const packed = await packedTarballs();
  project = path.join(dir, 'project');
  mkdirSync(project);
  // The files the API team hands out, put in the project as the README says.
  for (const { tarball } of Object.values(packed)) copyFileSync(tarball, path.join(project, path.basename(tarball)));
}, 300_000);

afterAll(async () => {
  await runner.stopBackgroundOutside(undefined);
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('README.md, followed in a new project that installs the packed tarballs', () => {
  it('skips only the commands that cannot run before publishing, and runs the tarball installs in their place', () => {
    const skipped = commands.filter((command) => command.mode === 'skip').map((command) => command.script.trim());
    expect(skipped).toEqual([
      expect.stringMatching(/^npm ci\nnpm start .*\nnpm test .*\nnpm run test:all /),
      'npm install @merchant-payments/contract\nnpm install --save-dev @merchant-payments/cli',
      'npm ci && npm pack --workspaces',
    ]);
    expect(commands.filter((command) => command.mode === 'run').map((command) => command.script.trim())).toContain(
      'npm install ./merchant-payments-contract-*.tgz\nnpm install --save-dev ./merchant-payments-sandbox-*.tgz ./merchant-payments-conformance-*.tgz ./merchant-payments-cli-*.tgz',
    );
  });

  it('shows in its CI steps only commands it runs itself (npm ci aside)', () => {
    const ran = commands
      .filter((command) => command.mode !== 'skip')
      .flatMap((command) => command.script.split('\n').map((line) => line.trim()));
    const ci = yamlRunCommands(readme).filter((command) => command !== 'npm ci');
    expect(ci.length).toBeGreaterThan(0);
    for (const command of ci) expect(ran, command).toContain(command);
  });

  it('runs every server it starts with `-- <command>` or as a marked background block, so nothing is left running', () => {
    for (const { script, mode } of commands) {
      if (mode !== 'run' || !/merchant-payments (mock|sandbox)\b/.test(script)) continue;
      expect(script, 'a mock or sandbox run in the foreground never returns').toMatch(
        /merchant-payments (mock|sandbox)\b[^\n]* -- /,
      );
    }
  });

  testSteps(steps, runner, {
    folder: () => project,
    file: (content) => movePortsIn(content, ports),
    script: (script) => moveCommandPorts(script, ports),
  });

  it('leaves nothing running: every port the README uses is free again', async () => {
    await runner.stopBackgroundOutside(undefined);
    expect(await takenPorts()).toEqual([]);
  });
});
