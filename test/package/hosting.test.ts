// docs/hosting.md as an operator follows it: the packed tarballs of the contract and the sandbox installed into a new
// folder with pg and node-pg-migrate, two instances on one throwaway PostgreSQL in issued mode, a tenant provisioned, a merchant's
// requests through both instances, a scrape of /metrics, a backup, and a SIGTERM during traffic that loses no
// acknowledged request. Every block runs as written (blocks marked skip aside), in order, in one folder; the two
// instances, background blocks, run until the end. Ports 4021 and 4022 are moved to free ones.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { startCluster, type Cluster } from '../postgres/cluster.js';
import { createDocRunner, testSteps } from './doc-runner.js';
import { packedTarballs, tarballsFor } from './pack.js';
import { readmeSteps } from './readme-blocks.js';
import { operatorShellEnv } from './npm-env.js';
import { portFree } from './readme-ports.js';

const guide = readFileSync(path.join(root, 'docs/hosting.md'), 'utf8');
const steps = readmeSteps(guide);
const GUIDE_PORTS = [4021, 4022] as const;

let dir: string;
let project: string;
let cluster: Cluster | undefined;
let moved: Record<number, number>;
let env: NodeJS.ProcessEnv;
const runner = createDocRunner(
  () => project,
  () => env,
);
const movePorts = (text: string) =>
  text.replace(new RegExp(`\\b(${GUIDE_PORTS.join('|')})\\b`, 'g'), (port) => String(moved[Number(port)]));

beforeAll(async () => {
  const [first, second] = await Promise.all([getPort(), getPort()]);
  moved = { 4021: first, 4022: second };
  dir = mkdtempSync(path.join(os.tmpdir(), 'hosting-'));
  project = path.join(dir, 'project');
  mkdirSync(project);
  const packed = await packedTarballs();
  for (const tarball of tarballsFor('sandbox', packed))
    copyFileSync(tarball, path.join(project, path.basename(tarball)));
  cluster = await startCluster();
  // Note: the operator's shell: none of this run's own variables, the secrets from the "secret store".
  env = operatorShellEnv(cluster.url);
}, 300_000);

afterAll(async () => {
  await runner.stopBackgroundOutside(undefined);
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

describe('docs/hosting.md, followed from the packed tarballs against a real PostgreSQL', () => {
  it('covers what the hosting guide must: two instances, a provisioned tenant, metrics, a backup and a SIGTERM during traffic', () => {
    const scripts = steps.flatMap((step) => (step.kind === 'command' && step.mode !== 'skip' ? [step.script] : []));
    expect(steps.filter((step) => step.kind === 'command' && step.mode === 'background')).toHaveLength(2);
    for (const needed of ['sandbox tenant create', '/metrics', 'pg_dump', 'node rolling-stop.mjs', '/readyz']) {
      expect(
        scripts.some((script) => script.includes(needed)),
        needed,
      ).toBe(true);
    }
  });

  testSteps(steps, runner, { folder: () => project, file: movePorts, script: movePorts, serversToTheEnd: true });

  it('leaves nothing running: both ports are free again', async () => {
    await runner.stopBackgroundOutside(undefined);
    expect(await Promise.all(Object.values(moved).map(portFree))).toEqual([true, true]);
  });
});
