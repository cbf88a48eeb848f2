// The merchant-payments-sandbox command, run from its source with tsx, on free ports of 127.0.0.1; every process it
// starts is stopped by pid.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { collectOutput, spawnTiedNode, stopChild } from '../../packages/contract/src/shared/children.js';
import { waitForPort } from '../../packages/cli/src/mock/ports.js';
import { alive, descendants, fromSource, killAll, runSource, stillAlive, stillBound } from '../mock/processes.js';

const command = path.join(root, 'packages/sandbox/src/cli/command.ts');
/** Starts a grandchild listening on the port given, then waits: see the file. */
const listenerCommand = path.join(root, 'test/mock/listener-command.mjs');
const started: ChildProcess[] = [];
/** Processes below the sandbox: SIGKILLed by pid if a test leaves any behind. */
const below = new Set<number>();
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => stopChild(child)));
  killAll(below);
  below.clear();
});

/** Runs the command to completion; resolves to its exit code and output. */
const run = (args: string[], env: NodeJS.ProcessEnv = process.env) => runSource(command, args, env, started);

// Note: the command creates a payment, advances nothing (manual clock), and exits 7 only if it reads it back as created.
const script = `
const base = process.env.MERCHANT_PAYMENTS_SANDBOX_URL;
const headers = { authorization: 'Bearer t', 'content-type': 'application/json', 'idempotency-key': 'k1' };
const created = await (await fetch(base + '/payments', { method: 'POST', headers, body: JSON.stringify({ amount: '1.00', currency: 'EUR', requisite: { type: 'card' } }) })).json();
await new Promise((r) => setTimeout(r, 300));
const again = await (await fetch(base + '/payments/' + created.data.id, { headers })).json();
console.log('status ' + again.data.status + ' secret ' + (process.env.WEBHOOK_SECRET ?? '').slice(0, 6));
process.exit(again.data.status === 'created' ? 7 : 1);`;

describe('merchant-payments-sandbox', () => {
  it('runs a command with --clock manual and MERCHANT_PAYMENTS_SANDBOX_URL set, exits with its code, and frees the port', async () => {
    const port = await getPort();
    const env = { ...process.env, WEBHOOK_SECRET: undefined };
    const { code, stdout } = await run(
      ['--port', String(port), '--clock', 'manual', '--', process.execPath, '--input-type=module', '-e', script],
      env,
    );
    expect(stdout).toContain(`listening on http://127.0.0.1:${port} (clock manual`);
    // Only --webhook-url deliveries use the sandbox's secret, so with none it is not printed, but the command still gets it.
    expect(stdout).not.toContain('webhook signing secret');
    expect(stdout).toContain('status created secret whsec_');
    expect(code).toBe(7);
    expect(await stillBound([port])).toEqual([]);
  });

  it('serves the dashboard by default and prints its URL; --no-dashboard and SANDBOX_DASHBOARD=off remove it', async () => {
    // Note: the command asks for /_dashboard/ and prints the status; from the sources the page may not be built, which
    // is a 404 naming the build, unlike the 404 of a path no API has.
    const probe = `
const answer = await fetch(process.env.MERCHANT_PAYMENTS_SANDBOX_URL + '/_dashboard/');
const text = await answer.text();
console.log('dashboard ' + (answer.ok ? 'served' : /no operation of either variant/i.test(text) ? 'absent' : 'not built'));`;
    const probeArgs = ['--', process.execPath, '--input-type=module', '-e', probe];
    const on = await run(['--port', String(await getPort()), ...probeArgs]);
    expect(on.code).toBe(0);
    expect(on.stdout).toMatch(
      /dashboard at http:\/\/127\.0\.0\.1:\d+\/_dashboard\/ \(sign in with a tenant's credentials\)/,
    );
    expect(on.stdout).toMatch(/^dashboard (served|not built)$/m);
    const flag = await run(['--port', String(await getPort()), '--no-dashboard', ...probeArgs]);
    expect(flag.stdout).toMatch(/^dashboard absent$/m);
    expect(flag.stdout).not.toContain('dashboard at');
    const variable = await run(['--port', String(await getPort()), ...probeArgs], {
      ...process.env,
      SANDBOX_DASHBOARD: 'off',
    });
    expect(variable.stdout).toMatch(/^dashboard absent$/m);
    const wrong = await run(['--port', String(await getPort()), ...probeArgs], {
      ...process.env,
      SANDBOX_DASHBOARD: 'no',
    });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('SANDBOX_DASHBOARD must be "on" or "off", got "no"');
  });

  it('prints no secret it was given', async () => {
    const port = await getPort();
    const secret = `whsec_${Buffer.from('a-secret-given-by-environment!!').toString('base64')}`;
    const { code, stdout, stderr } = await run(
      ['--port', String(port), '--', process.execPath, '-e', 'process.exit(0)'],
      { ...process.env, WEBHOOK_SECRET: secret },
    );
    expect(code).toBe(0);
    expect(`${stdout}${stderr}`).not.toContain(secret);
    expect(stdout).not.toContain('whsec_');
  });

  it.skipIf(!existsSync('/proc/self/cmdline'))(
    'keeps the secret out of every command line, its own and those of the processes it starts',
    async () => {
      const secret = `whsec_${Buffer.from('a-secret-kept-out-of-the-ps-list').toString('base64')}`;
      // Note: the command reads the command lines of itself and of each ancestor up to the test's own process, as ps would.
      const walk = `
const { readFileSync } = require('node:fs');
const lines = [];
for (let pid = process.pid; pid > 1 && pid !== ${process.pid}; pid = Number(readFileSync('/proc/' + pid + '/stat', 'utf8').split(') ')[1].split(' ')[1])) {
  lines.push(readFileSync('/proc/' + pid + '/cmdline', 'utf8').split('\\0').join(' '));
}
console.log(JSON.stringify(lines));`;
      const { code, stdout } = await run(['--port', String(await getPort()), '--', process.execPath, '-e', walk], {
        ...process.env,
        WEBHOOK_SECRET: secret,
      });
      expect(code).toBe(0);
      const lines = JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
      expect(lines.some((line) => line.includes('command.ts'))).toBe(true);
      expect(lines.join('\n')).not.toContain(secret);
      expect(lines.join('\n')).not.toContain('whsec_');
    },
  );

  it.skipIf(!existsSync('/proc/self/stat'))(
    'stops the command and its children when only the group runner is killed with SIGKILL',
    async () => {
      const [port, grandchild] = await Promise.all([getPort(), getPort()]);
      const stubborn = [process.execPath, listenerCommand, String(grandchild), 'wait', 'stubborn'];
      const sandbox = spawnTiedNode(command, ['--port', String(port), '--', ...stubborn], {
        cwd: root,
        nodeArgs: fromSource,
      });
      started.push(sandbox);
      const output = collectOutput(sandbox);
      const exited = new Promise<number | null>((resolve) => sandbox.once('exit', (code) => resolve(code)));
      await waitForPort(grandchild, '127.0.0.1', { timeoutMs: 20_000, isDead: () => sandbox.exitCode !== null });
      const pids = descendants(sandbox.pid!);
      pids.forEach((pid) => below.add(pid));
      const runner = pids.find((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('run-in-group.js'));
      expect(runner, `no group runner among ${pids.length} processes below the sandbox`).toBeDefined();
      expect(pids.length).toBeGreaterThanOrEqual(3); // the runner, the command, its grandchild (and the group's leader)
      process.kill(runner!, 'SIGKILL');
      expect(await stillBound([grandchild])).toEqual([]);
      expect(await stillAlive(pids)).toEqual([]);
      const seconds = 10;
      const code = await Promise.race([
        exited,
        new Promise<'timeout'>((resolve) => setTimeout(resolve, seconds * 1000, 'timeout')),
      ]);
      if (code === 'timeout')
        throw new Error(`timed out after ${seconds} s waiting for the sandbox to exit; its output:\n${output()}`);
      expect(code).toBe(128 + 9);
    },
  );

  it('on SIGTERM answers the request in flight, refuses new connections and exits 0 within its bound, having logged JSON lines without the credential', async () => {
    // Note: a receiver that holds every delivery, so that an advance (which waits for its deliveries) is in flight.
    let received = 0;
    let answered = 0;
    const receiver = createServer((request, response) => {
      received += 1;
      request.resume();
      setTimeout(() => {
        answered += 1;
        response.writeHead(200).end();
      }, 1500);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const port = await getPort();
      const sandbox = spawnTiedNode(
        command,
        ['--port', String(port), '--clock', 'manual', '--webhook-url', hook, '--log', 'json'],
        { cwd: root, nodeArgs: fromSource },
      );
      started.push(sandbox);
      let stdout = '';
      let stderr = '';
      sandbox.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      sandbox.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => sandbox.once('exit', (code) => resolve(code)));
      await waitForPort(port, '127.0.0.1', { timeoutMs: 20_000, isDead: () => sandbox.exitCode !== null });
      const base = `http://127.0.0.1:${port}`;
      const token = 'tok_graceful_shutdown_secret';
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const created = await fetch(`${base}/payments`, {
        method: 'POST',
        headers: { ...headers, 'idempotency-key': 'k1' },
        body: JSON.stringify({ amount: '1.00', currency: 'EUR', requisite: { type: 'card' } }),
      });
      expect(created.ok).toBe(true);
      // Note: the create's own webhooks are let through first, so that the one held below is the advance's.
      for (let quiet = 0; quiet < 3; quiet = received === answered ? quiet + 1 : 0)
        await new Promise((r) => setTimeout(r, 200));
      const before = received;
      const advancing = fetch(`${base}/_sandbox/clock/advance`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ seconds: 86_400 }),
      });
      while (received === before) await new Promise((r) => setTimeout(r, 20));
      const signalled = Date.now();
      process.kill(sandbox.pid!, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      const refused = await new Promise<string | undefined>((resolve) => {
        const socket = connect({ port, host: '127.0.0.1' });
        socket.once('connect', () => {
          socket.destroy();
          resolve(undefined);
        });
        socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code));
      });
      expect(refused).toBe('ECONNREFUSED');
      const advanced = await advancing;
      expect(advanced.status).toBe(200);
      const code = await Promise.race([
        exited,
        new Promise<'timeout'>((resolve) => setTimeout(resolve, 20_000, 'timeout')),
      ]);
      expect(code, `output:\n${stdout}${stderr}`).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(15_000);
      expect(stdout).toContain(`listening on ${base} (clock manual`);
      const lines = stderr
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((line) => line.operation === 'advanceClock')).toMatchObject({
        status: 200,
        method: 'POST',
        path: '/_sandbox/clock/advance',
        requestId: expect.stringMatching(/^req_/),
      });
      expect(lines.find((line) => line.event === 'stopping')).toMatchObject({ reason: 'SIGTERM', inFlight: 1 });
      expect(lines.find((line) => line.event === 'stopped')).toMatchObject({ answered: 1, cutOff: 0 });
      expect(`${stdout}${stderr}`).not.toContain(token);
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 60_000);

  /**
   * Starts the sandbox as a shell script would, in the background (`command &`), and lets the shell end once the
   * sandbox listens: its launcher is then gone. Resolves to the sandbox's pid, its port and its output file.
   */
  async function startedByAShellThatEnds(extra: string[]) {
    const port = await getPort();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-launch-'));
    const log = path.join(dir, 'sandbox.log');
    const go = path.join(dir, 'go');
    const line = [process.execPath, ...fromSource, command, '--port', String(port), '--clock', 'manual', ...extra]
      .map((word) => `'${word}'`)
      .join(' ');
    // Note: the shell waits for the file `go`, so that it ends after the sandbox has started and noted its launcher.
    const shell = spawn(
      'bash',
      ['-c', `${line} > '${log}' 2>&1 & echo $!; while [ ! -e '${go}' ]; do sleep 0.05; done`],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    started.push(shell);
    const pid = Number((await new Promise<Buffer>((resolve) => shell.stdout.once('data', resolve))).toString().trim());
    below.add(pid);
    await waitForPort(port, '127.0.0.1', { timeoutMs: 20_000, isDead: () => !alive(pid) });
    const shellGone = new Promise((resolve) => shell.once('exit', resolve));
    writeFileSync(go, '');
    await shellGone;
    return { pid, port, log: () => readFileSync(log, 'utf8'), dir };
  }

  it('keeps serving once the shell that started it in the background has ended, and on SIGTERM says it is draining, then what it finished', async () => {
    const { pid, port, log, dir } = await startedByAShellThatEnds([]);
    try {
      // Note: the launcher watch looked every half second; four times its period is past any look it would make.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(alive(pid)).toBe(true);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      process.kill(pid, 'SIGTERM');
      expect(await stillAlive([pid], 15_000)).toEqual([]);
      const output = log();
      expect(output).toContain(
        'merchant-payments-sandbox: stopping (SIGTERM): draining 0 request(s) in flight, for at most 10 s',
      );
      expect(output).toContain(
        'merchant-payments-sandbox: stopped: 0 request(s) answered, 0 cut off; every webhook delivery in flight recorded',
      );
      expect(await stillBound([port])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with --when-orphaned exit, stops once the shell that started it has ended, saying why', async () => {
    const { pid, port, log, dir } = await startedByAShellThatEnds(['--when-orphaned', 'exit']);
    try {
      expect(await stillAlive([pid], 15_000)).toEqual([]);
      expect(log()).toContain('merchant-payments-sandbox: stopping (its launcher is gone)');
      expect(await stillBound([port])).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 on a usage error and 0 on --help', async () => {
    const bad = await run(['--clock', 'sometimes']);
    const help = await run(['--help']);
    const noCommand = await run(['--port', '0', '--']);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--clock must be "real" or "manual"')]);
    expect([noCommand.code, noCommand.stderr]).toEqual([2, expect.stringContaining('a command must follow --')]);
    expect([help.code, help.stdout]).toEqual([0, expect.stringContaining('Exit codes:')]);
    const withPassword = await run(['--port', '0', '--webhook-url', 'http://ops:ops-pass@127.0.0.1:9/hooks']);
    expect([withPassword.code, withPassword.stderr]).toEqual([
      2,
      expect.stringContaining('--webhook-url must be without a user name or password'),
    ]);
    expect(withPassword.stderr).not.toContain('ops-pass');
    const badRate = await run(['--port', '0', '--rate-limit', 'fast']);
    const badRateVariable = await run(['--port', '0'], { ...process.env, SANDBOX_RATE_LIMIT: '-1' });
    expect([badRate.code, badRate.stderr]).toEqual([
      2,
      expect.stringContaining('--rate-limit must be a positive number'),
    ]);
    expect([badRateVariable.code, badRateVariable.stderr]).toEqual([
      2,
      expect.stringContaining('SANDBOX_RATE_LIMIT must be a positive number'),
    ]);
    const badEndpoints = await run(['--port', '0', '--max-webhook-endpoints', '21']);
    expect([badEndpoints.code, badEndpoints.stderr]).toEqual([
      2,
      expect.stringContaining('--max-webhook-endpoints must be a whole number from 1 to 20'),
    ]);
  });

  it('refuses --webhook-secret, run as a process, with exit 2 and a message naming WEBHOOK_SECRET', async () => {
    const secret = `whsec_${Buffer.from('a-secret-given-on-the-command-line').toString('base64')}`;
    const { code, stdout, stderr } = await run(['--port', '0', '--webhook-secret', secret]);
    expect(code).toBe(2);
    expect(stderr).toContain('set the WEBHOOK_SECRET environment variable instead');
    expect(`${stdout}${stderr}`).not.toContain(secret);
  });
});
