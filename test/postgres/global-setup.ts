// Starts one throwaway PostgreSQL cluster for the `postgres` project's files, provides its URL as `databaseUrl` (and
// `sandboxStore: 'postgres'`, for the test/sandbox files the project runs again), and stops it by its pid afterwards.
import type { TestProject } from 'vitest/node';
import { alive } from '../mock/processes.js';
import { startCluster } from './cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test cluster's `postgres` database; each file makes its own database with freshDatabase(). */
    databaseUrl: string;
    /** The store test/sandbox/fixtures.ts's openTestSandbox uses: `postgres` for the sandbox files this project runs again. */
    sandboxStore: 'memory' | 'postgres';
  }
}

/** Starts the cluster and returns the teardown, which fails the run if the postmaster outlived stop(). */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startCluster();
  project.provide('databaseUrl', cluster.url);
  project.provide('sandboxStore', 'postgres');
  return async () => {
    await cluster.stop();
    if (alive(cluster.pid)) throw new Error(`PostgreSQL (pid ${cluster.pid}) is still running after stop().`);
  };
}
