// The one command that runs the conformance kit against the package's own mock, as docs/conformance.md and
// docs/mock.md show it: for each variant the same block in both, run as written in `bash -e` (with `npx
// merchant-payments` run from the sources and the mock moved to a free port), exits 0 with a report that says it judged
// only what a server without state can pass and lists what it left out. Starts the mock (Prism) and the kit.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { alive, fromSource } from '../mock/processes.js';
import { freeReadmePorts, moveCommandPorts } from '../package/readme-ports.js';

const DOCS = ['docs/conformance.md', 'docs/mock.md'];

/** The `sh` blocks of a document that run the kit with --stateless. */
function statelessBlocks(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .filter((block) => block.includes('merchant-payments conformance') && block.includes('--stateless'));
}

// Note: `npx merchant-payments` in the docs names the installed command; here it runs the sources, as a shim on PATH
// that the inner `sh -c` finds too.
const shims = mkdtempSync(path.join(os.tmpdir(), 'kit-mock-'));
writeFileSync(
  path.join(shims, 'npx'),
  `#!/bin/sh\n[ "$1" = merchant-payments ] || { echo "npx $1: only merchant-payments is run here" >&2; exit 127; }\nshift\n` +
    `exec '${process.execPath}' ${fromSource.map((flag) => `'${flag}'`).join(' ')} '${path.join(root, 'packages/cli/src/main.ts')}' "$@"\n`,
);
chmodSync(path.join(shims, 'npx'), 0o755);

const started: ChildProcess[] = [];
afterAll(() => {
  // Note: each block runs in a process group of its own; whatever it left running goes down with it.
  for (const child of started) if (child.pid !== undefined && alive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  rmSync(shims, { recursive: true, force: true });
});

/** Runs a block in `bash -e` in its own process group, without the credentials of this environment; code and output. */
function runBlock(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${shims}${path.delimiter}${process.env.PATH ?? ''}` };
  for (const name of ['PAYMENTS_ACCESS_TOKEN', 'PAYMENTS_PUBLIC_KEY', 'PAYMENTS_SECRET_KEY', 'WEBHOOK_SECRET'])
    delete env[name];
  const child = spawn('bash', ['-e', '-c', script], { cwd: root, env, detached: true });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

describe('the kit against the mock, as the docs show it', () => {
  const blocks = DOCS.map(statelessBlocks);

  it('is one block per variant, the same in both guides', () => {
    expect(blocks[0]).toHaveLength(2);
    expect(blocks[1]).toEqual(blocks[0]);
  });

  it.each(['a', 'b'])('exits 0 on Variant %s, judging only what a server without state can pass', async (variant) => {
    const block = blocks[0]!.find((candidate) => candidate.includes(`--variant ${variant} `))!;
    const { code, stdout, stderr } = await runBlock(moveCommandPorts(block, await freeReadmePorts()));
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toMatch(/^Judged only what a server that keeps no state can pass \(--stateless\)/m);
    expect(stdout).not.toMatch(/^✗ /m);
    expect(stdout).toMatch(/^Stages not run:\n {2}- webhooks: needs a server that keeps state/m);
    const notChecked = stdout.slice(stdout.indexOf('Not checked on this server:'));
    for (const subject of [
      'invariants · retrieve_matches_create',
      'invariants · idempotent_replay',
      'flows · idempotency',
    ])
      expect(notChecked).toContain(`  - ${subject}: needs a server that keeps state (left out by --stateless)`);
    expect(stdout.trim().split('\n').at(-1)).toMatch(
      new RegExp(
        `^PASSED: (\\d+) of \\1 checks passed on \\d+ subjects of flows, fuzz, invariants .* against Variant ${variant.toUpperCase()} .*judging only what a server without state can pass`,
      ),
    );
  });
});
