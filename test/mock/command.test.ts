// The merchant-payments mock command (alias merchant-payments-mock), run from its source with tsx (test/package/tarball.test.ts runs the packed bin):
// serves a variant's bundled spec with Prism, runs a command against it, stops cleanly.
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { collectOutput, spawnTiedNode, stopChild } from '../../packages/contract/src/shared/children.js';
import { assertPortFree, waitForPort } from '../../packages/cli/src/mock/ports.js';
import { descendants, fromSource, killAll, stillAlive, stillBound } from './processes.js';

const command = path.join(root, 'packages/cli/src/mock/command.ts');
/** Starts a grandchild listening on the port given, then exits with a code or waits: see the file. */
const listenerCommand = path.join(root, 'test/mock/listener-command.mjs');
const started: ChildProcess[] = [];
/** Processes below the mock (Prism, the command, its grandchild): killed by pid if a test leaves any behind. */
const below = new Set<number>();
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => stopChild(child)));
  killAll(below);
  below.clear();
});

/** Runs the command to completion; resolves to its exit code and output. */
function run(
  script: string,
  args: string[],
  cwd = root,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // Note: tsx reads the paths that map the packages' names to their sources from the repository's tsconfig.json, which
  // a run from another folder would not find.
  const env = { ...process.env, TSX_TSCONFIG_PATH: path.join(root, 'tsconfig.json') };
  const child = spawnTiedNode(script, args, { cwd, env, nodeArgs: fromSource });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Starts the mock in the foreground and resolves once it prints that it listens. */
async function startMock(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawnTiedNode(command, args, { cwd: root, nodeArgs: fromSource });
  started.push(child);
  const output = collectOutput(child);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening on (http:\/\/\S+)/.exec(chunk.toString());
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`the mock exited (${code}) before listening:\n${output()}`)));
  });
  return { child, url };
}

describe('merchant-payments-mock', () => {
  it('serves Variant B from the bundled spec, enforcing its key pair, and stops on SIGTERM', async () => {
    const port = await getPort();
    const { child, url } = await startMock(['--variant', 'b', '--port', String(port)]);
    expect(url).toBe(`http://127.0.0.1:${port}`);

    const listed = await fetch(`${url}/merchant/v1/payments`, {
      headers: { 'X-Public-Key': 'pk_test', 'X-Secret-Key': 'sk_test' },
    });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as { data: { id: string }[]; pagination: { total: number } };
    expect(body.data[0]?.id).toMatch(/^pay_/);
    expect(typeof body.pagination.total).toBe('number');
    expect((await fetch(`${url}/merchant/v1/payments`, { headers: { 'X-Public-Key': 'pk_test' } })).status).toBe(401);
    expect(
      (await fetch(`${url}/payments`, { headers: { 'X-Public-Key': 'pk_test', 'X-Secret-Key': 'sk_test' } })).status,
    ).toBe(404);

    const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    process.kill(child.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    // Prism was stopped with it: the port is free again.
    await expect(assertPortFree(port, '127.0.0.1')).resolves.toBeUndefined();
  });

  it('runs a command against the mock with its URL set, exits with its code, and stops the mock and what the command left running', async () => {
    const [port, leftRunning] = await Promise.all([getPort(), getPort()]);
    const args = [
      '--variant',
      'a',
      '--port',
      String(port),
      '--',
      process.execPath,
      listenerCommand,
      String(leftRunning),
      'exit',
      '7',
    ];
    const { code, stdout } = await run(command, args);
    expect(stdout).toContain(`Variant A listening on http://127.0.0.1:${port}`);
    // 7 only once the grandchild listened and the mock answered 200 with the URL the command was given.
    expect(code).toBe(7);
    expect(await stillBound([port, leftRunning])).toEqual([]);
  });

  it("keeps Prism's [VALIDATOR] lines out of a command's run unless --verbose asks for them", async () => {
    // The command sends a request without credentials, which Prism refuses (401) and logs.
    const script =
      "const r = await fetch(process.env.MERCHANT_PAYMENTS_MOCK_URL + '/payments'); console.log('answered', r.status);";
    const quiet = await run(command, [
      '--variant',
      'a',
      '--port',
      String(await getPort()),
      '--',
      process.execPath,
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stdout).toContain('answered 401');
    expect(quiet.stdout).toMatch(/^merchant-payments mock: Variant A listening on /m);
    expect(quiet.stderr).not.toContain('[VALIDATOR]');
    const verbose = await run(command, [
      '--variant',
      'a',
      '--verbose',
      '--port',
      String(await getPort()),
      '--',
      process.execPath,
      '--input-type=module',
      '-e',
      script,
    ]);
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stdout).toContain('answered 401');
    expect(verbose.stderr).toMatch(/^\[prism\] .*\[VALIDATOR\]/m);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'passes %s to the command and takes its grandchildren down with it, exiting %i',
    async (signal, exitCode) => {
      const [port, grandchild] = await Promise.all([getPort(), getPort()]);
      const { child } = await startMock([
        '--variant',
        'b',
        '--port',
        String(port),
        '--',
        process.execPath,
        listenerCommand,
        String(grandchild),
        'wait',
      ]);
      await waitForPort(grandchild, '127.0.0.1', { timeoutMs: 10_000 });
      const pids = descendants(child.pid!);
      pids.forEach((pid) => below.add(pid));
      const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      process.kill(child.pid!, signal);
      expect(await exited).toBe(exitCode);
      expect(await stillBound([port, grandchild])).toEqual([]);
      expect(await stillAlive(pids)).toEqual([]);
    },
  );

  it('leaves nothing running when it is killed with SIGKILL, not even a grandchild that ignores SIGTERM', async () => {
    const [port, grandchild] = await Promise.all([getPort(), getPort()]);
    const stubborn = [process.execPath, listenerCommand, String(grandchild), 'wait', 'stubborn'];
    const { child } = await startMock(['--variant', 'b', '--port', String(port), '--', ...stubborn]);
    await waitForPort(grandchild, '127.0.0.1', { timeoutMs: 10_000 });
    const pids = descendants(child.pid!);
    pids.forEach((pid) => below.add(pid));
    expect(pids.length).toBeGreaterThanOrEqual(3); // Prism, the command, its grandchild
    process.kill(child.pid!, 'SIGKILL');
    expect(await stillBound([port, grandchild])).toEqual([]);
    expect(await stillAlive(pids)).toEqual([]);
  });

  it('refuses a missing or unknown variant with its usage', async () => {
    for (const args of [[], ['--variant', 'c'], ['--variant', 'a', 'extra'], ['--variant', 'a', '--']]) {
      const { code, stderr } = await run(command, args);
      expect(code, args.join(' ')).toBe(2);
      expect(stderr).toContain('usage: merchant-payments mock --variant a|b');
    }
  });

  it('refuses --responses-only without --upstream, saying why', async () => {
    const { code, stderr } = await run(command, ['--variant', 'a', '--responses-only']);
    expect(code).toBe(2);
    expect(stderr).toContain("--responses-only checks a server's responses, so it needs --upstream");
  });

  it('says how to install Prism when it is not installed', async () => {
    // The CLI package's layout with the contract beside it and nothing else: Prism cannot be resolved from there.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mock-command-'));
    try {
      for (const file of ['package.json', 'src/mock']) {
        cpSync(path.join(root, 'packages/cli', file), path.join(dir, file), { recursive: true });
      }
      mkdirSync(path.join(dir, 'node_modules/@merchant-payments'), { recursive: true });
      symlinkSync(path.join(root, 'packages/contract'), path.join(dir, 'node_modules/@merchant-payments/contract'));
      const { code, stderr } = await run(path.join(dir, 'src/mock/command.ts'), ['--variant', 'b'], dir);
      const { devDependencies } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
      expect(code).toBe(1);
      expect(stderr).toContain('Prism is not installed');
      expect(stderr).toContain(
        `npm install --save-dev @stoplight/prism-cli@${devDependencies['@stoplight/prism-cli']}`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
