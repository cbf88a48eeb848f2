// Starts the Prism contract mock (--errors) of each variant on free ports for the client tests, and stops it by pid.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import type { TestProject } from 'vitest/node';
import { startPrism, type PrismServer } from '../../packages/cli/src/mock/prism.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the Prism mock of each variant. */
    mockUrls: { A: string; B: string };
  }
}

/** Starts both mocks, provides their URLs as `mockUrls`, and returns the teardown that stops them. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [portA, portB] = await Promise.all([getPort(), getPort()]);
  const started = await Promise.allSettled([
    startPrism({
      spec: path.join(root, 'packages/contract/generated/openapi/variant-a.yaml'),
      port: portA,
      errors: true,
    }),
    startPrism({
      spec: path.join(root, 'packages/contract/generated/openapi/variant-b.yaml'),
      port: portB,
      errors: true,
    }),
  ]);
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(servers.map((server: PrismServer) => server.stop()));
  };
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw failed.reason;
  }
  project.provide('mockUrls', { A: servers[0]!.url, B: servers[1]!.url });
  return stop;
}
