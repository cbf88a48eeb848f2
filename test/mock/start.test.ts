// `npm start`: serves both mocks and the docs on the ports given, prints the URLs, and leaves nothing running after Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { freePorts } from '../../scripts/lib/prism.mjs';
import { root } from '../../scripts/lib/tools.mjs';

/** Every descendant pid of `pid`, read from /proc (Linux). */
function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

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

describe('npm start', () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    if (child?.pid && alive(child.pid)) process.kill(child.pid, 'SIGKILL');
  });

  it('serves Variant A, Variant B and the docs on the given ports, then stops every process on SIGINT', async () => {
    const [portA, portB, portDocs] = await freePorts(3);
    const args = ['scripts/start.mjs', '--port-a', String(portA), '--port-b', String(portB), '--port-docs', String(portDocs)];
    child = spawn(process.execPath, args, { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = await waitForOutput(child, /docs\s+http:\/\/\S+\n/);

    for (const url of [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`, `http://127.0.0.1:${portDocs}`]) expect(out).toContain(url);
    const a = await fetch(`http://127.0.0.1:${portA}/payments`);
    expect(a.status).toBe(401);
    const b = await fetch(`http://127.0.0.1:${portB}/merchant/v1/payments`, { headers: { 'X-Public-Key': 'pk', 'X-Secret-Key': 'sk' } });
    expect(b.status).toBe(200);
    expect(((await b.json()) as { pagination: unknown }).pagination).toEqual({ total: 1, limit: 20, offset: 0 });
    const docs = await fetch(`http://127.0.0.1:${portDocs}/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('variant-b.html');

    const started = descendants(child.pid!);
    expect(started.length).toBeGreaterThanOrEqual(2); // the two Prism processes
    const exited = new Promise<number | null>((resolve) => child!.once('exit', resolve));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    // Note: stopChild waits for each server's exit before start.mjs exits, so none may be left.
    expect(started.filter(alive)).toEqual([]);
    await expect(fetch(`http://127.0.0.1:${portB}/merchant/v1/payments`)).rejects.toThrow();
  });

  it('refuses a port that is not a TCP port, naming the flag', async () => {
    const run = spawn(process.execPath, ['scripts/start.mjs', '--port-a', 'http'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    run.stderr.on('data', (chunk) => (err += chunk));
    const code = await new Promise((resolve) => run.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain('--port-a must be a TCP port, got "http"');
  });
});

