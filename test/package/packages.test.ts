// Each package as its users get it, alone: its tarball holds what its exports and bins point at and nothing from the
// repository besides, publint and @arethetypeswrong/cli find nothing, installed into an empty project (with the
// tarballs of the workspaces it depends on, as the registry would bring them) it adds only what it lists, and its
// README's commands run there as written. tarball.test.ts installs all four together.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sizeOf } from '../../scripts/lib/disk-size.mjs';
import { binPath, root } from '../../scripts/lib/tools.mjs';
import { createDocRunner, testSteps } from './doc-runner.js';
import { output, run, userShellEnv } from './npm-env.js';
import { packedTarballs, tarballsFor, type PackageName, type PackedTarballs } from './pack.js';
import { readmeSteps } from './readme-blocks.js';
import { freeReadmePorts, moveCommandPorts, movePortsIn, portEnv, type PortMap } from './readme-ports.js';

const MB = 2 ** 20;

interface Manifest {
  main?: string;
  types?: string;
  exports: Record<string, string | Record<string, string>>;
  bin?: Record<string, string>;
  files: string[];
  dependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifestOf = (name: PackageName) =>
  JSON.parse(readFileSync(path.join(root, 'packages', name, 'package.json'), 'utf8')) as Manifest;

/**
 * What an install of each package alone may hold besides its own dependency tree: for the contract, the issue's
 * limits (4 packages, 3 MB); for every package, none of the tools the others bring.
 */
const expected: Record<PackageName, { absent: string[]; maxPackages?: number; maxMegabytes?: number }> = {
  contract: {
    absent: ['hono', 'pino', 'prom-client', 'undici', 'ipaddr.js', 'fast-check', 'junit-report-builder', 'lodash'],
    maxPackages: 4,
    maxMegabytes: 3,
  },
  sandbox: {
    absent: ['@merchant-payments/conformance', 'fast-check', 'junit-report-builder', 'pg', 'node-pg-migrate'],
  },
  conformance: { absent: ['@merchant-payments/sandbox', 'hono', 'pino', 'prom-client', 'ws', '@redocly/cli'] },
  cli: { absent: ['@stoplight/prism-cli', '@redocly/cli', 'pg'] },
};

let dir: string;
let packed: PackedTarballs;
/** Where the READMEs' default ports are moved to in this run (readme-ports.ts). */
let ports: PortMap;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'packages-'));
  ports = await freeReadmePorts();
  packed = await packedTarballs();
}, 300_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.each(['contract', 'sandbox', 'conformance', 'cli'] as const)('@merchant-payments/%s', (name) => {
  const manifest = manifestOf(name);
  const steps = readmeSteps(readFileSync(path.join(root, 'packages', name, 'README.md'), 'utf8'));
  const project = () => path.join(dir, name);
  const runner = createDocRunner(project, () => ({ ...userShellEnv(), ...portEnv(ports) }));

  afterAll(() => runner.stopBackgroundOutside(undefined), 60_000);

  it('packs what its exports and bins point at, its README, LICENSE and CHANGELOG, and nothing else', () => {
    const { files } = packed[name];
    const targets = [
      manifest.main,
      manifest.types,
      ...Object.values(manifest.exports).flatMap((t) => (typeof t === 'string' ? [t] : Object.values(t))),
      ...Object.values(manifest.bin ?? {}),
    ].flatMap((t) => (t && !t.includes('*') ? [t.replace(/^\.\//, '')] : []));
    expect(files).toEqual(expect.arrayContaining([...targets, 'README.md', 'LICENSE', 'CHANGELOG.md', 'package.json']));
    const shipped = manifest.files.filter((f) => /\.(yaml|json)$/.test(f));
    const unexpected = files.filter(
      (f) =>
        !/^(dist\/.*\.(js|d\.ts)|bin\/[a-z-]+\.mjs|LICENSE|README\.md|CHANGELOG\.md|package\.json)$/.test(f) &&
        // Note: the sandbox's dashboard page, built by Vite: its index.html, a script and a style sheet.
        !(name === 'sandbox' && /^dist\/dashboard\/(index\.html|assets\/[\w-]+\.(js|css))$/.test(f)) &&
        !shipped.includes(f),
    );
    expect(unexpected).toEqual([]);
  });

  it('passes publint with nothing to report', () => {
    // Note: publint's exports hide its package.json, so its CLI is found through node_modules/.bin.
    const lint = run(
      process.execPath,
      [realpathSync(path.join(root, 'node_modules/.bin/publint')), 'run', packed[name].tarball, '--strict'],
      root,
    );
    expect(output(lint)).toContain('All good!');
    expect(lint.status).toBe(0);
  });

  // Note: the CLI exports no module, only its package.json, so attw has nothing to judge there.
  it.skipIf(name === 'cli')(
    'passes @arethetypeswrong/cli with no problem for ESM consumers and bundlers, on every entry',
    () => {
      // Note: .attw.json picks the esm-only profile (the packages are ESM; Node >= 20.19 also require()s them, checked
      // in tarball.test.ts) and leaves out the contract's YAML entries, which are data, not modules.
      const attw = run(
        process.execPath,
        [binPath('@arethetypeswrong/cli', 'attw'), packed[name].tarball, '--format', 'json'],
        root,
      );
      expect(attw.status, output(attw)).toBe(0);
      const { analysis } = JSON.parse(attw.stdout);
      const problems = Object.values(analysis.problems as Record<string, { resolutionKind?: string }[]>).flat();
      expect(
        problems.filter(
          (p) => p.resolutionKind === 'node16-esm' || p.resolutionKind === 'bundler' || !p.resolutionKind,
        ),
      ).toEqual([]);
      const entries = Object.keys(manifest.exports).filter((entry) => !entry.endsWith('.yaml'));
      expect(Object.keys(analysis.entrypoints).sort()).toEqual(entries.sort());
    },
  );

  it('installs alone into an empty project with only what it lists', () => {
    mkdirSync(project());
    writeFileSync(
      path.join(project(), 'package.json'),
      JSON.stringify({ name: `alone-${name}`, private: true, type: 'module' }),
    );
    const installed = run(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballsFor(name, packed)],
      project(),
    );
    expect(installed.status, output(installed)).toBe(0);
    // Note: npm ls lists the project itself first.
    const listed = new Set(
      run('npm', ['ls', '--all', '--parseable'], project())
        .stdout.trim()
        .split('\n')
        .slice(1)
        .map((line) => path.relative(path.join(project(), 'node_modules'), line)),
    );
    for (const dependency of Object.keys(manifest.dependencies)) expect([...listed], dependency).toContain(dependency);
    for (const absent of expected[name].absent) expect([...listed], absent).not.toContain(absent);
    const { maxPackages, maxMegabytes } = expected[name];
    if (maxPackages) expect(listed.size, [...listed].join(', ')).toBeLessThanOrEqual(maxPackages);
    if (maxMegabytes) expect(sizeOf(path.join(project(), 'node_modules')).disk / MB).toBeLessThanOrEqual(maxMegabytes);
  });

  it.runIf(name === 'sandbox')("serves its built dashboard at /_dashboard/ once installed, with the page's CSP", () => {
    expect(packed[name].files).toContain('dist/dashboard/index.html');
    // Note: the installed package's createSandbox, on a free port of 127.0.0.1, asked for the page and the script it loads.
    const script = `
      import { createSandbox } from '@merchant-payments/sandbox';
      const sandbox = createSandbox();
      const { url } = await sandbox.listen({ port: 0 });
      const page = await fetch(url + '/_dashboard/');
      const html = await page.text();
      const src = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
      const asset = src ? await fetch(url + src) : undefined;
      console.log(JSON.stringify({
        status: page.status,
        csp: page.headers.get('content-security-policy'),
        title: /<title>([^<]*)<[/]title>/.exec(html)?.[1],
        asset: asset?.status,
      }));
      await sandbox.close();
    `;
    const served = run(process.execPath, ['--input-type=module', '-e', script], project());
    expect(served.status, output(served)).toBe(0);
    expect(JSON.parse(served.stdout)).toEqual({
      status: 200,
      csp: expect.stringContaining("script-src 'self'"),
      title: 'Sandbox dashboard',
      asset: 200,
    });
  });

  describe('its README, followed in that project', () => {
    testSteps(steps, runner, {
      folder: project,
      file: (content) => movePortsIn(content, ports),
      script: (script) => moveCommandPorts(script, ports),
    });
  });
});
