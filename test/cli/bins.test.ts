// Each command as a process, as its bin runs it: the source of every bin's command, started with node (tsx), prints
// its usage on --help and exits 0. main.test.ts checks the same text in-process; the packed bins run in
// test/package.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { stopChild } from '../../packages/contract/src/shared/children.js';
import { runSource } from '../mock/processes.js';

const started: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(started.splice(0).map((child) => stopChild(child)));
});

describe('each command, run as a process', () => {
  it.each([
    ['merchant-payments', 'packages/cli/src/main.ts', 'usage: merchant-payments <command>'],
    ['merchant-payments-sandbox', 'packages/sandbox/src/cli/command.ts', 'usage: merchant-payments sandbox'],
    ['merchant-payments-mock', 'packages/cli/src/mock/command.ts', 'usage: merchant-payments mock'],
    ['merchant-payments-conformance', 'packages/conformance/src/command.ts', 'usage: merchant-payments conformance'],
  ])('%s --help prints its usage and exits 0', async (_bin, source, usage) => {
    const { code, stdout, stderr } = await runSource(path.join(root, source), ['--help'], process.env, started);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout.startsWith(usage)).toBe(true);
  });
});
