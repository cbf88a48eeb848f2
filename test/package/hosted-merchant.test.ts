// A hosted sandbox as a merchant uses it, from the packed tarballs: two instances of the installed
// merchant-payments-sandbox in issued mode on one throwaway PostgreSQL, one of them started by a shell that then exits
// (it must stay up), a tenant issued by the operator's command, a test tenant made through one instance and used through
// the other, and `merchant-payments webhook listen --from` connected to one instance forwarding an event made through
// the other to a receiver on 127.0.0.1, signed with the secret it printed. Every process is stopped by its pid; the
// cluster and the folder are removed.
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { spawnTiedNode, stopChild, type PipedChild } from '../../packages/contract/src/shared/children.js';
import { startCluster, type Cluster } from '../postgres/cluster.js';
import { startListening } from '../postgres/sandbox-process.js';
import { operatorShellEnv, output, run } from './npm-env.js';
import { packedTarballs, tarballsFor } from './pack.js';

const started: PipedChild[] = [];
let dir: string;
let project: string;
let cluster: Cluster | undefined;
let env: NodeJS.ProcessEnv;
/** The instance the shell started and left: its pid (from the shell's $!) and URL. */
let detached: { pid: number; url: string } | undefined;
let second: { url: string } | undefined;
/** The test tenant the second test makes, which the listener forwards the events of. */
let test: { id: string; public_key: string; secret_key: string } | undefined;
let receiver: Server | undefined;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Stops the shell's instance by its pid: SIGTERM, and SIGKILL if it has not gone in ten seconds. */
async function stopDetached(): Promise<void> {
  if (!detached || !alive(detached.pid)) return;
  process.kill(detached.pid, 'SIGTERM');
  for (let waited = 0; waited < 10_000 && alive(detached.pid); waited += 100) await sleep(100);
  if (alive(detached.pid)) process.kill(detached.pid, 'SIGKILL');
}

async function until(url: string, ms: number): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const answer = await fetch(url).catch(() => undefined);
    if (answer?.ok) return;
    if (Date.now() > end) throw new Error(`${url} did not answer 200 within ${ms / 1000} s`);
    await sleep(200);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'hosted-merchant-'));
  project = path.join(dir, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'hosted', private: true, type: 'module' }));
  // Note: the versions the repository tests with, from its own node_modules, so that npm finds them in its cache.
  const version = (name: string) =>
    (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
      .version;
  const tarballs = tarballsFor('cli', await packedTarballs());
  const install = run(
    'npm',
    [
      'install',
      '--ignore-scripts',
      ...tarballs,
      `pg@${version('pg')}`,
      `node-pg-migrate@${version('node-pg-migrate')}`,
    ],
    project,
  );
  expect(install.status, output(install)).toBe(0);
  cluster = await startCluster();
  env = operatorShellEnv(cluster.url);
}, 300_000);

afterAll(async () => {
  receiver?.close();
  await stopDetached();
  await Promise.all(started.map((child) => stopChild(child)));
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

const bin = (name: string) => path.join(project, 'node_modules/.bin', name);
const settings = ['--store', 'postgres', '--auth', 'issued', '--clock', 'manual', '--host', '127.0.0.1'];

describe('a hosted sandbox from the packed tarballs, as a merchant uses it', () => {
  it('keeps an instance up after the shell that started it in the background exits', async () => {
    const port = await getPort();
    const log = path.join(dir, 'detached.log');
    // Note: the shell starts the instance in the background, prints its pid and exits at once, as nohup … & does.
    const shell = spawnSync(
      'sh',
      [
        '-c',
        `"$0" "$@" >"${log}" 2>&1 </dev/null & echo $!`,
        bin('merchant-payments-sandbox'),
        ...settings,
        '--port',
        String(port),
      ],
      { cwd: project, env, encoding: 'utf8', timeout: 10_000 },
    );
    expect(shell.status, shell.stderr).toBe(0);
    detached = { pid: Number(shell.stdout.trim()), url: `http://127.0.0.1:${port}` };
    expect(detached.pid).toBeGreaterThan(1);
    await until(`${detached.url}/healthz`, 90_000);
    // Its launcher is gone; it answers still, several seconds on (the orphan watch polled each second).
    await sleep(3000);
    expect(alive(detached.pid)).toBe(true);
    expect((await fetch(`${detached.url}/readyz`)).status).toBe(200);
    expect(readFileSync(log, 'utf8')).toContain('listening on');
  });

  it('makes a test tenant through one instance and uses it through the other', async () => {
    second = await startListening(
      bin('merchant-payments-sandbox'),
      [...settings, '--port', '0'],
      { cwd: project, env },
      started,
    );
    const issued = run(
      process.execPath,
      [bin('merchant-payments'), 'sandbox', 'tenant', 'create', '--url', detached!.url],
      project,
      env,
    );
    expect(issued.status, output(issued)).toBe(0);
    const tenant = JSON.parse(issued.stdout) as { access_token: string };
    const made = await fetch(`${detached!.url}/_sandbox/tenants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.access_token}` },
    });
    expect(made.status).toBe(201);
    test = (await made.json()).data as { id: string; public_key: string; secret_key: string };
    const keys = { 'x-public-key': test.public_key, 'x-secret-key': test.secret_key };
    const created = await fetch(`${second.url}/merchant/v1/payments`, {
      method: 'POST',
      headers: { ...keys, 'content-type': 'application/json', 'idempotency-key': 'hosted-1' },
      body: JSON.stringify({ amount: '12.00', currency: 'EUR', requisite: { type: 'card' } }),
    });
    expect(created.status).toBe(200);
    const id = (await created.json()).data.id as string;
    const read = await fetch(`${detached!.url}/merchant/v1/payments/${id}`, { headers: keys });
    expect([read.status, (await read.json()).data.id]).toEqual([200, id]);
    const listed = await fetch(`${second.url}/_sandbox/tenants`, {
      headers: { authorization: `Bearer ${tenant.access_token}` },
    });
    expect((await listed.json()).data.map((t: { id: string }) => t.id)).toEqual([test.id]);
  });

  it('forwards an event made through one instance to a receiver on 127.0.0.1, from a listener connected to the other', async () => {
    const got: { body: string; headers: Record<string, string> }[] = [];
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        got.push({ body, headers: request.headers as Record<string, string> });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const listener = spawnTiedNode(
      bin('merchant-payments'),
      ['webhook', 'listen', '--from', detached!.url, '--forward-to', hook],
      { cwd: project, env: { ...env, PAYMENTS_PUBLIC_KEY: test!.public_key, PAYMENTS_SECRET_KEY: test!.secret_key } },
    );
    started.push(listener);
    let printed = '';
    listener.stdout.on('data', (chunk) => (printed += chunk));
    const secret = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no secret printed within 30 s:\n${printed}`)), 30_000);
      listener.stdout.on('data', () => {
        const found = /signing secret is (whsec_\S+)/.exec(printed)?.[1];
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      });
    });
    const keys = { 'x-public-key': test!.public_key, 'x-secret-key': test!.secret_key };
    const created = await fetch(`${second!.url}/merchant/v1/payments`, {
      method: 'POST',
      headers: { ...keys, 'content-type': 'application/json', 'idempotency-key': 'hosted-forwarded' },
      body: JSON.stringify({ amount: '15.00', currency: 'EUR', requisite: { type: 'card' } }),
    });
    const id = (await created.json()).data.id as string;
    const canceled = await fetch(`${second!.url}/merchant/v1/payments/${id}/cancel`, {
      method: 'POST',
      headers: { ...keys, 'idempotency-key': 'hosted-forwarded-cancel' },
    });
    expect(canceled.status).toBe(200);
    for (let waited = 0; waited < 30_000 && !got.some((hit) => hit.body.includes(id)); waited += 100) await sleep(100);
    const delivery = got.find((hit) => hit.body.includes(id));
    expect(delivery, printed).toBeDefined();
    // The installed contract's verifier, with the secret the listener printed.
    const require = createRequire(path.join(project, 'index.js'));
    const { verifyWebhook } = (await import(
      pathToFileURL(require.resolve('@merchant-payments/contract/webhooks')).href
    )) as typeof import('../../packages/contract/src/webhooks/index.js');
    const event = await verifyWebhook(delivery!.body, delivery!.headers, secret);
    expect(event.data).toMatchObject({ id, status: 'canceled' });
    // The laptop's answer is the attempt in the tenant's delivery log, read through the other instance.
    const deliveries = await (
      await fetch(`${second!.url}/_sandbox/deliveries?state=delivered`, { headers: keys })
    ).json();
    const attempt = deliveries.data[0].attempts[0];
    expect([attempt.outcome, attempt.response_status, typeof attempt.duration_ms]).toEqual([
      'succeeded',
      204,
      'number',
    ]);
    await stopChild(listener);
  });

  it('stops the shell-started instance by its pid with one line that it drained', async () => {
    await stopDetached();
    expect(alive(detached!.pid)).toBe(false);
    expect(readFileSync(path.join(dir, 'detached.log'), 'utf8')).toMatch(/stopping \(SIGTERM\)[\s\S]*stopped/);
  });
});
