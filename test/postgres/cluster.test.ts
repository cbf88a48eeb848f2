import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { stopChild, type PipedChild } from '../../packages/contract/src/shared/children.js';
import { descendants, stillAlive } from '../mock/processes.js';
import { startCluster } from './cluster.js';
import { startScript } from './spawn.js';

const started: PipedChild[] = [];
afterAll(async () => void (await Promise.all(started.map((child) => stopChild(child)))));

describe('startCluster', () => {
  it('starts a server on 127.0.0.1 that stop() takes down, leaving no process and no folder', async () => {
    const cluster = await startCluster();
    let processes: number[];
    try {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      const { rows } = await client.query<{ address: string; port: number }>(
        'SELECT host(inet_server_addr()) AS address, inet_server_port() AS port',
      );
      await client.end();
      expect(rows).toEqual([{ address: '127.0.0.1', port: cluster.port }]);
      processes = [cluster.pid, ...descendants(cluster.pid)];
      expect(processes.length).toBeGreaterThan(1);
    } finally {
      await cluster.stop();
    }
    expect(await stillAlive(processes, 0)).toEqual([]);
    expect(existsSync(cluster.dir)).toBe(false);
  });

  it('loads the libraries it is given at start, so that pg_stat_statements counts statements', async () => {
    const cluster = await startCluster({ preload: ['pg_stat_statements'] });
    try {
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ libraries: string }>(
          "SELECT current_setting('shared_preload_libraries') AS libraries",
        );
        expect(rows).toEqual([{ libraries: 'pg_stat_statements' }]);
        await client.query('CREATE EXTENSION pg_stat_statements');
        await client.query('SELECT pg_stat_statements_reset()');
        await client.query('SELECT 41 + 1 AS counted');
        const counted = await client.query<{ calls: string }>(
          "SELECT calls FROM pg_stat_statements WHERE query LIKE 'SELECT $1 + $2 AS counted%'",
        );
        expect(counted.rows).toEqual([{ calls: '1' }]);
      } finally {
        await client.end();
      }
    } finally {
      await cluster.stop();
    }
  });

  it('is stopped and removed by its watchdog when the process that started it is killed', async () => {
    const script = fileURLToPath(new URL('./hold-cluster.ts', import.meta.url));
    const { pid, dir } = JSON.parse(await startScript(script, {}, started)) as { pid: number; dir: string };
    const processes = [pid, ...descendants(pid)];
    started[0]!.kill('SIGKILL');
    expect(await stillAlive(processes, 10_000)).toEqual([]);
    // Note: the watchdog removes the folder once the postmaster is gone, a moment later.
    await expect.poll(() => existsSync(dir), { timeout: 10_000 }).toBe(false);
  });
});
