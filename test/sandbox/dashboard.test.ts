// The dashboard's routes (/_dashboard/) on a sandbox in this process, over a folder of stand-in built files: what they
// serve and with which headers, the bare path's redirect, the answers when a file or the whole build is missing, the
// `dashboard` option, and that nothing else moves under the prefix (the page's data comes from the APIs themselves).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../packages/sandbox/src/index.js';
import { DASHBOARD_CSP, defaultDashboardAssets } from '../../packages/sandbox/src/dashboard/routes.js';
import { root } from '../../scripts/lib/tools.mjs';

const ORIGIN = 'http://sandbox.test';
const INDEX =
  '<!doctype html><title>Sandbox dashboard</title><script type="module" src="/_dashboard/assets/a.js"></script>';
let assets: string;
const sandboxes: Sandbox[] = [];

const get = (sandbox: Sandbox, where: string, init?: RequestInit) =>
  sandbox.fetch(new Request(`${ORIGIN}${where}`, init));
const withDashboard = (dashboard: SandboxOptions['dashboard']) => {
  const sandbox = createSandbox({ dashboard });
  sandboxes.push(sandbox);
  return sandbox;
};

beforeAll(() => {
  assets = mkdtempSync(path.join(os.tmpdir(), 'dashboard-assets-'));
  mkdirSync(path.join(assets, 'assets'));
  writeFileSync(path.join(assets, 'index.html'), INDEX);
  writeFileSync(path.join(assets, 'assets', 'a.js'), 'export {};\n');
});

afterAll(async () => {
  for (const sandbox of sandboxes) await sandbox.close();
  rmSync(assets, { recursive: true, force: true });
});

describe('/_dashboard/', () => {
  it('serves the built index.html and its assets with the policy that allows only its own origin and no inline code', async () => {
    const sandbox = withDashboard({ assets });
    const page = await get(sandbox, '/_dashboard/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(await page.text()).toBe(INDEX);
    const script = await get(sandbox, '/_dashboard/assets/a.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it('moves the bare path to the folder, so the assets resolve', async () => {
    const moved = await get(withDashboard({ assets }), '/_dashboard');
    expect(moved.status).toBe(308);
    expect(moved.headers.get('location')).toBe('/_dashboard/');
  });

  it('answers a missing file, and a path that climbs out of the folder, with a 404 problem', async () => {
    const sandbox = withDashboard({ assets });
    const missing = await get(sandbox, '/_dashboard/assets/none.js');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({
      code: 'not_found',
      detail: 'The dashboard has no file /_dashboard/assets/none.js.',
    });
    const climbing = await get(sandbox, '/_dashboard/%2e%2e/%2e%2e/package.json');
    expect(climbing.status).toBe(404);
    expect(await climbing.text()).not.toContain('"name"');
  });

  it('says how to build the page when its folder is missing, rather than serving nothing quietly', async () => {
    const answer = await get(withDashboard({ assets: path.join(assets, 'not-built') }), '/_dashboard/');
    expect(answer.status).toBe(404);
    expect((await answer.json()).detail).toBe(
      'The dashboard is not built here: run `npm run build` (or `node scripts/build.mjs sandbox`) in the repository.',
    );
  });

  it('is the ordinary 404 of a path no API has when turned off, and the API answers the same either way', async () => {
    const off = withDashboard(false);
    const answer = await get(off, '/_dashboard/');
    expect(answer.status).toBe(404);
    expect((await answer.json()).detail).toBe('No operation of either variant is GET /_dashboard/.');
    const headers = { authorization: 'Bearer dashboard-off' };
    expect((await get(off, '/_sandbox/clock', { headers })).status).toBe(200);
  });

  it('serves only GET and HEAD', async () => {
    const answer = await get(withDashboard({ assets }), '/_dashboard/', { method: 'POST' });
    expect(answer.status).toBe(404);
  });

  it('refuses a `dashboard` option that is neither a switch nor a folder', () => {
    expect(() => createSandbox({ dashboard: { assets: '' } })).toThrow(
      'dashboard must be true, false or { assets: <the folder of its built files> }.',
    );
  });

  it("serves, by default, what npm run build writes beside the sandbox's code: packages/sandbox/dist/dashboard", () => {
    expect(defaultDashboardAssets()).toBe(path.join(root, 'packages', 'sandbox', 'dist', 'dashboard'));
    expect(defaultDashboardAssets(path.join(root, 'packages', 'sandbox', 'dist', 'src', 'dashboard'))).toBe(
      path.join(root, 'packages', 'sandbox', 'dist', 'dashboard'),
    );
  });
});
