// `merchant-payments-sandbox --store postgres` as users run it: from the packed tarballs of the sandbox and the
// contract installed into a new project, first without `pg` and `node-pg-migrate` (exit 2 naming the install), then
// with them, against a throwaway cluster of this file's own named by DATABASE_URL. Every process is stopped by its pid; the cluster and folders are removed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { stopChild, type PipedChild } from '../../packages/contract/src/shared/children.js';
import { startCluster, type Cluster } from '../postgres/cluster.js';
import { startListening } from '../postgres/sandbox-process.js';
import { npmInstallEnv } from './npm-env.js';
import { packedTarballs, tarballsFor } from './pack.js';

const started: PipedChild[] = [];
let dir: string;
let cluster: Cluster | undefined;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'package-postgres-'));
});
afterAll(async () => {
  await Promise.all(started.map((child) => stopChild(child)));
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a command to completion in `cwd` (killed after two minutes); its exit code and output. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ...npmInstallEnv, ...env },
  });
  if (result.error) throw result.error;
  return { code: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe("the sandbox's installed tarball", () => {
  it('runs merchant-payments-sandbox --store postgres against DATABASE_URL once pg and node-pg-migrate are installed', async () => {
    const tarballs = tarballsFor('sandbox', await packedTarballs());
    const project = path.join(dir, 'consumer');
    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    const install = (packages: string[]) =>
      run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...packages], project);
    const installed = install(tarballs);
    expect(installed.code, installed.output).toBe(0);
    const bin = path.join(project, 'node_modules/.bin/merchant-payments-sandbox');
    cluster = await startCluster();
    const env = { DATABASE_URL: cluster.url };

    const without = run(process.execPath, [bin, '--store', 'postgres', '--port', '0'], project, env);
    expect([without.code, without.output]).toEqual([2, expect.stringContaining('npm install pg node-pg-migrate')]);

    // Note: the versions the repository tests with, from its own node_modules, so that npm finds them in its cache.
    const version = (name: string) =>
      (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
        .version;
    const peers = install([`pg@${version('pg')}`, `node-pg-migrate@${version('node-pg-migrate')}`]);
    expect(peers.code, peers.output).toBe(0);

    const sandbox = await startListening(
      bin,
      ['--store', 'postgres', '--clock', 'manual', '--port', '0'],
      { cwd: project, env: { ...process.env, ...env } },
      started,
    );
    const headers = {
      authorization: 'Bearer tarball',
      'content-type': 'application/json',
      'idempotency-key': 'tarball-1',
    };
    const created = await fetch(`${sandbox.url}/payments`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ amount: '5.00', currency: 'EUR', requisite: { type: 'card' } }),
    });
    expect(created.status).toBe(200);
    const { data } = (await created.json()) as { data: { id: string } };
    await stopChild(sandbox.child);
    // What the stopped sandbox acknowledged is in the database.
    const stored = run(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import pg from 'pg'; const c = new pg.Client({ connectionString: process.env.DATABASE_URL }); await c.connect(); const r = await c.query('SELECT count(*)::int AS n FROM sandbox_objects WHERE id = $1', [process.argv[1]]); console.log('rows ' + r.rows[0].n); await c.end();`,
        data.id,
      ],
      project,
      env,
    );
    expect(stored.output).toContain('rows 1');
  });
});
