// `npm start`: serves both mocks and the docs on the ports given, prints the URLs, and leaves nothing running after
// Ctrl-C, nor after a SIGKILL of start.mjs or of npm.
import { spawn, type ChildProcess } from 'node:child_process';
import getPort from 'get-port';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { alive, descendants, fromSource, killAll, stillAlive, stillBound } from './processes.js';

/** Resolves with stdout once `pattern` has appeared in it; rejects if the process exits first. */
function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      if (pattern.test(out)) resolve(out);
    });
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${out}\n${err}`)));
  });
}

/** Starts `npm start` (through npm, or start.mjs directly) on four free ports; resolves once every server is ready. */
async function start(through: 'npm' | 'node', pids: Set<number>) {
  const ports = await Promise.all(Array.from({ length: 4 }, () => getPort()));
  const flags = [
    '--port-a',
    String(ports[0]),
    '--port-b',
    String(ports[1]),
    '--port-docs',
    String(ports[2]),
    '--port-sandbox',
    String(ports[3]),
  ];
  const child =
    through === 'npm'
      ? spawn('npm', ['start', '--', ...flags], {
          cwd: root,
          stdio: ['pipe', 'pipe', 'pipe'],
          env: { ...process.env, npm_config_update_notifier: 'false' },
        })
      : spawn(process.execPath, [...fromSource, 'scripts/start.mjs', ...flags], {
          cwd: root,
          stdio: ['pipe', 'pipe', 'pipe'],
        });
  pids.add(child.pid!);
  const out = await waitForOutput(child, /docs\s+http:\/\/\S+\n/);
  descendants(child.pid!).forEach((pid) => pids.add(pid));
  return { child, ports, out };
}

describe('npm start', () => {
  /** Every process a test started, killed by pid afterwards if it is still there. */
  const pids = new Set<number>();
  afterEach(() => {
    killAll(pids);
    pids.clear();
  });

  it('serves Variant A, Variant B and the docs on the given ports, then stops every process on SIGINT', async () => {
    const { child, ports, out } = await start('node', pids);
    const [portA, portB, portDocs, portSandbox] = ports;

    for (const url of [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`, `http://127.0.0.1:${portDocs}`])
      expect(out).toContain(url);
    const a = await fetch(`http://127.0.0.1:${portA}/payments`);
    expect(a.status).toBe(401);
    const b = await fetch(`http://127.0.0.1:${portB}/merchant/v1/payments`, {
      headers: { 'X-Public-Key': 'pk', 'X-Secret-Key': 'sk' },
    });
    expect(b.status).toBe(200);
    expect(((await b.json()) as { pagination: unknown }).pagination).toEqual({ total: 3, limit: 20, offset: 0 });
    const sandbox = await fetch(`http://127.0.0.1:${portSandbox}/merchant/v1/payments`, {
      headers: { 'X-Public-Key': 'pk', 'X-Secret-Key': 'sk' },
    });
    expect(((await sandbox.json()) as { pagination: unknown }).pagination).toEqual({ total: 0, limit: 20, offset: 0 });
    expect(out).toContain(
      `-d '{"amount":"42.50","currency":"EUR","requisite":{"type":"card"}}' http://127.0.0.1:${portSandbox}/payments`,
    );
    // The sandbox's dashboard, built afresh by this start, at the URL it prints.
    expect(out).toContain(`dashboard http://127.0.0.1:${portSandbox}/_dashboard/`);
    const dashboard = await fetch(`http://127.0.0.1:${portSandbox}/_dashboard/`);
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await dashboard.text()).toContain('<title>Sandbox dashboard</title>');
    expect(out).toMatch(/webhooks: restart with --webhook-url/);
    const docs = await fetch(`http://127.0.0.1:${portDocs}/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('variant-b.html');

    const started = descendants(child.pid!);
    expect(started.length).toBeGreaterThanOrEqual(2); // the two Prism processes
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    // Note: stopChild waits for each server's exit before start.mjs exits, so none may be left.
    expect(started.filter(alive)).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${portB}/merchant/v1/payments`)).rejects.toThrow();
  });

  it('frees every port within 5 s and leaves no process behind when start.mjs is killed with SIGKILL', async () => {
    const { child, ports } = await start('node', pids);
    const below = descendants(child.pid!);
    expect(below.length).toBeGreaterThanOrEqual(2); // the two Prism processes
    child.kill('SIGKILL');
    expect(await stillBound(ports)).toEqual([]);
    expect(await stillAlive(below)).toEqual([]);
  });

  it('frees every port within 5 s and stops start.mjs and everything below it when npm is killed with SIGKILL', async () => {
    const { child, ports } = await start('npm', pids);
    const below = descendants(child.pid!);
    expect(below.length).toBeGreaterThanOrEqual(4); // sh -c, start.mjs, the two Prism processes
    child.kill('SIGKILL');
    expect(await stillBound(ports)).toEqual([]);
    expect(await stillAlive(below)).toEqual([]);
  });

  it('refuses a port that is not a TCP port, naming the flag', async () => {
    const run = spawn(process.execPath, [...fromSource, 'scripts/start.mjs', '--port-a', 'http'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    run.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise((resolve) => run.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain('--port-a must be a TCP port, got "http"');
  });
});
