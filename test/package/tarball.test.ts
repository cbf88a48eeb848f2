// The packages as users get them, all four together: installed into a new project from their tarballs, type-checked
// under node16 and bundler resolution, the testing guide's examples run (node:test and vitest), and required from
// CommonJS. Each package alone (its tarball's files, publint, attw, its install's size, its README) is
// packages.test.ts's; the root README's commands are run by readme.test.ts.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { output, run } from './npm-env.js';
import { packedTarballs, tarballsFor, type PackageName, type PackedTarballs } from './pack.js';

const manifest = (name: PackageName) =>
  JSON.parse(readFileSync(path.join(root, 'packages', name, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>;
  };
const dev = (
  JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
).devDependencies;
let dir: string;
let packed: PackedTarballs;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'package-'));
  packed = await packedTarballs();
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a project that installs the four tarballs', () => {
  let project: string;
  const npmInstall = (args: string[]) =>
    run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...args], project);
  const mockBin = () => path.join(project, 'node_modules/.bin/merchant-payments-mock');
  const modes = {
    node16: { module: 'node16', moduleResolution: 'node16', noEmit: true },
    bundler: { module: 'esnext', moduleResolution: 'bundler', noEmit: true },
  };
  /** Type-checks consumer.ts in the project under one resolution mode. */
  const typecheck = (mode: keyof typeof modes) => {
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022'],
        types: ['node'],
        strict: true,
        skipLibCheck: false,
        ...modes[mode],
      },
      files: ['consumer.ts'],
    };
    writeFileSync(path.join(project, `tsconfig.${mode}.json`), JSON.stringify(tsconfig));
    return run(
      process.execPath,
      [path.join(project, 'node_modules/typescript/bin/tsc'), '-p', `tsconfig.${mode}.json`],
      project,
    );
  };

  beforeAll(() => {
    project = path.join(dir, 'consumer');
    mkdirSync(project);
    writeFileSync(
      path.join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    // Note: vitest for the testing guide's vitest example, as a merchant who tests with it has it.
    const installed = npmInstall([
      ...tarballsFor('cli', packed),
      `typescript@${dev.typescript}`,
      `@types/node@${dev['@types/node']}`,
      `vitest@${dev.vitest}`,
    ]);
    expect(installed.status, output(installed)).toBe(0);
    copyFileSync(path.join(root, 'test/package/consumer/consumer.ts'), path.join(project, 'consumer.ts'));
  }, 120_000);

  it('gets no optional peer: Prism and Redocly are left out, and the mock says how to add Prism', () => {
    for (const name of ['contract', 'sandbox', 'conformance', 'cli'])
      expect(existsSync(path.join(project, 'node_modules/@merchant-payments', name, 'package.json')), name).toBe(true);
    expect(existsSync(path.join(project, 'node_modules/openapi-fetch'))).toBe(true);
    expect(existsSync(path.join(project, 'node_modules/secure-json-parse'))).toBe(true);
    expect(existsSync(path.join(project, 'node_modules/hono'))).toBe(true);
    expect(existsSync(path.join(project, 'node_modules/@hono/node-server'))).toBe(true);
    for (const signal of ['prom-client', 'pino'])
      expect(existsSync(path.join(project, 'node_modules', signal))).toBe(true);
    for (const kit of ['fast-check', 'yaml', 'junit-report-builder'])
      expect(existsSync(path.join(project, 'node_modules', kit))).toBe(true);
    for (const peer of ['@stoplight/prism-cli', '@redocly/cli'])
      expect(existsSync(path.join(project, 'node_modules', peer)), peer).toBe(false);
    const mock = run(mockBin(), ['--variant', 'b'], project);
    expect(mock.status).toBe(1);
    expect(mock.stderr).toContain(`npm install --save-dev @stoplight/prism-cli@${dev['@stoplight/prism-cli']}`);
  });

  it("skips the conformance kit's flows stage without @redocly/cli, saying how to install it, and sends nothing", () => {
    const bin = path.join(project, 'node_modules/.bin/merchant-payments');
    // Note: port 9 of 127.0.0.1 (discard) answers nothing here; a stage that sent a request would fail on it.
    const kit = run(
      bin,
      ['conformance', '--variant', 'b', '--base-url', 'http://127.0.0.1:9', '--only', 'flows'],
      project,
      { PAYMENTS_PUBLIC_KEY: 'pk_tarball', PAYMENTS_SECRET_KEY: 'sk_tarball' },
    );
    expect(`${kit.stdout}${kit.stderr}`).toContain(
      `npm install @redocly/cli@${manifest('conformance').peerDependencies['@redocly/cli']}`,
    );
    expect(kit.stdout).toContain('not run: flows');
  });

  it.each(['node16', 'bundler'] as const)(
    'type-checks a file using both clients and the webhook verifier under moduleResolution %s',
    (mode) => {
      const tsc = typecheck(mode);
      expect(output(tsc).trim()).toBe('');
      expect(tsc.status).toBe(0);
    },
  );

  // Note: --port 0 takes a free port, since the README test may hold the default one at the same time.
  it('runs `npx merchant-payments-sandbox --clock manual -- <command>` with MERCHANT_PAYMENTS_SANDBOX_URL set, and exits with its code', () => {
    const script = [
      "import { createVariantBClient } from '@merchant-payments/contract';",
      "const client = createVariantBClient({ baseUrl: process.env.MERCHANT_PAYMENTS_SANDBOX_URL, publicKey: 'pk_tarball', secretKey: 'sk_tarball' });",
      "const { data } = await client.POST('/merchant/v1/payments', { body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card' } } });",
      "const got = await client.GET('/merchant/v1/payments/{paymentId}', { params: { path: { paymentId: data.data.id } } });",
      'console.log(`${got.data.data.requested.amount} ${got.data.data.status}`);',
      'process.exit(3);',
    ].join('\n');
    writeFileSync(path.join(project, 'sandbox-check.mjs'), script);
    const sandbox = run(
      'npx',
      [
        '--no-install',
        'merchant-payments-sandbox',
        '--port',
        '0',
        '--clock',
        'manual',
        '--',
        'node',
        'sandbox-check.mjs',
      ],
      project,
    );
    expect(sandbox.stdout, output(sandbox)).toContain('42.50 created');
    expect(sandbox.status, output(sandbox)).toBe(3);
  });

  it("runs the testing guide's examples against the installed packages: testing-node.test.mjs with node --test, testing-vitest.test.ts with vitest", () => {
    for (const name of ['testing-node.test.mjs', 'testing-vitest.test.ts'])
      copyFileSync(path.join(root, 'examples', name), path.join(project, name));
    const node = run(process.execPath, ['--test', 'testing-node.test.mjs'], project);
    expect(node.status, output(node)).toBe(0);
    expect(node.stdout).toMatch(/^# pass 6$/m);
    const vitest = run(
      process.execPath,
      [path.join(project, 'node_modules/vitest/vitest.mjs'), 'run', 'testing-vitest.test.ts'],
      project,
    );
    expect(vitest.status, output(vitest)).toBe(0);
    // Note: vitest colours its output when this run's environment asks for colour.
    expect(vitest.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests\s+6 passed \(6\)/);
  });

  it('can be required from CommonJS on Node 20.19 and later', () => {
    const script =
      "const root = require('@merchant-payments/contract'); const hooks = require('@merchant-payments/contract/webhooks');" +
      "const sandbox = require('@merchant-payments/sandbox');" +
      'console.log(typeof root.createVariantAClient, typeof root.createVariantBClient, typeof hooks.verifyWebhook, typeof sandbox.createSandbox, typeof sandbox.createSandboxControlClient);';
    const required = run(process.execPath, ['--input-type=commonjs', '-e', script], project);
    expect(required.stdout.trim(), output(required)).toBe('function function function function function');
  });
});
