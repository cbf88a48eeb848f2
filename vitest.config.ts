import { defineConfig } from 'vitest/config';
import { sourceAliases } from './scripts/lib/workspaces.mjs';

// Two lanes (CONTRIBUTING.md, "Tests"):
// - `npm test` runs the `fast` project: every file that needs no process of its own, in a minute and a half on two
//   cores;
// - `npm run test:all` runs it, then the `processes`, `prism` and `postgres` projects: every file that starts Prism,
//   npm, tsc, Chromium, Redocly, Spectral or PostgreSQL, or runs a command from the sources as a user would.
// A new test file is in the fast lane unless it is listed below.
// Note: a project's global setup runs only when one of its files runs, so Prism starts only for the files that use it,
// once per run.

/** Files that start processes other than Prism: each line says what. */
const processes = [
  'test/package/readme.test.ts', // npm pack and install, then the README's commands in a new project
  'test/package/tarball.test.ts', // npm pack, the four packages installed together, tsc, their bins, vitest
  'test/package/packages.test.ts', // npm pack, each package installed alone, publint, attw, its README's commands
  'test/package/postgres-store.test.ts', // npm pack and install, a PostgreSQL cluster, the installed sandbox on it
  'test/package/hosting.test.ts', // npm pack and install, a PostgreSQL cluster, docs/hosting.md's commands (two instances, curl, pg_dump)
  'test/package/hosted-merchant.test.ts', // npm pack and install, a PostgreSQL cluster, two issued instances, a merchant's test tenant and webhook listener
  'test/docs/site.test.ts', // the VitePress build, Redocly build-docs and Chromium
  'test/docs/snippets.test.ts', // tsc over the docs' snippets
  'test/sandbox/dashboard-browser.test.ts', // the dashboard's Vite build and Chromium
  'test/mock/command.test.ts', // the mock command, which starts Prism
  'test/mock/start.test.ts', // npm start
  'test/mock/prism.test.ts', // Prism
  'test/mock/proxy.test.ts', // Prism's validating proxy
  'test/cli/bins.test.ts', // each command, from its source
  'test/cli/mock-both.test.ts', // the mock command with both variants
  'test/cli/webhook.test.ts', // webhook listen and send, from the sources
  'test/cli/webhook-forward.test.ts', // webhook listen --from, from the sources, against sandboxes in the test's process
  'test/conformance/flows.test.ts', // Redocly Respect
  'test/sandbox/command.test.ts', // the sandbox command, from the sources
  'test/sandbox/proxy.test.ts', // Prism's validating proxy in front of the sandbox
  'test/contract/composition.test.ts', // Redocly bundle
  'test/contract/drift.test.ts', // the generators, into a temporary folder
  'test/lint/house-rules.test.ts', // Spectral
  'test/lint/sandbox-ruleset.test.ts', // Spectral
  'test/lint/admin-ruleset.test.ts', // Spectral
  'test/generators/matrix.test.ts', // eight generators' CLIs and APIs, newman, tsc, each client's flow under tsx in a child process
  'test/tools/hey-api.test.ts', // an independent generator, then tsc
  'test/tools/openapi-typescript-codegen.test.ts', // an independent generator, then tsc
  'test/tools/redocly-strict.test.ts', // Redocly lint
  'test/versioning/breaking-changes.test.ts', // the breaking-change check and changesets
];

/** Files that call the Prism mocks the `prism` project's global setup starts. */
const prism = [
  'test/client/contract-variant-a.test.ts',
  'test/client/contract-variant-b.test.ts',
  'test/client/quickstart.test.ts',
  'test/mock/prefer.test.ts',
  'test/conformance/mock-stateless.test.ts', // also starts the mock command, as docs/conformance.md and docs/mock.md show it
];

/** Files that need the PostgreSQL cluster the `postgres` project's global setup starts (initdb, pg_ctl). */
const postgres = ['test/postgres/**/*.test.ts'];

/**
 * Sandbox behaviour files that run on both stores: on memory in the fast lane, and again in the `postgres` project,
 * where test/postgres/global-setup.ts provides `sandboxStore: 'postgres'` to test/sandbox/fixtures.ts.
 */
const bothStores = [
  'test/sandbox/store-lane.test.ts',
  'test/sandbox/merchant-flow.test.ts',
  'test/sandbox/lifecycles-http.test.ts',
  'test/sandbox/idempotency.test.ts',
  'test/sandbox/control-clock.test.ts',
  'test/sandbox/deliveries.test.ts',
  'test/sandbox/test-tenants.test.ts',
  'test/sandbox/bad-input.test.ts',
];

export default defineConfig({
  // The aliases let tests and examples/ import the packages by their names, as a user would, from their sources
  // (tsconfig.json maps the same names for tsc and tsx).
  resolve: { alias: sourceAliases },
  test: {
    // Note: a worker keeps its modules from one file to the next rather than loading the package again for each;
    // a file that changes a global puts it back in afterAll.
    isolate: false,
    // Note: the slow files mostly wait on their children, so on two cores a third worker runs another file meanwhile.
    maxWorkers: 3,
    // Note: generous, so that a loaded machine slows the tests down rather than failing them.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    projects: [
      {
        extends: true,
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: [...processes, ...prism, ...postgres] },
      },
      {
        extends: true,
        test: {
          name: 'processes',
          include: processes,
          globalSetup: ['test/package/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'prism', include: prism, globalSetup: ['test/client/global-setup.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: [...postgres, ...bothStores],
          globalSetup: ['test/postgres/global-setup.ts'],
        },
      },
    ],
  },
});
