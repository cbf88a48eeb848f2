// Browser test of the sandbox's dashboard: the page built by Vite, served by sandboxes in this process (open mode and
// issued mode, both listening on 127.0.0.1), driven in a headless Chromium as a merchant would: sign in with each
// variant, a payment made through the API, "Advance" and the webhook attempt to a receiver on 127.0.0.1, "Redeliver",
// a fault added in the page, sign-out. axe-core checks every view; screenshots of the list and of a payment's page at
// 1400 px are kept, their paths printed.
import { readFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVariantAClient } from '@merchant-payments/contract';
import { createSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { DASHBOARD_CSP } from '../../packages/sandbox/src/dashboard/routes.js';
import { buildDashboard, DASHBOARD_GZIP_BUDGET, gzippedSizes } from '../../scripts/lib/dashboard.mjs';
import { CHROMIUM_FLAGS, findChromium } from '../docs/chromium.js';

/** Where the screenshots go, kept after the run (the test prints their paths). */
const screenshots = path.join(os.tmpdir(), 'merchant-payments-dashboard');
const WIDE = { width: 1400, height: 900 };
const STORAGE_KEY = 'merchant-payments-dashboard:credentials';
const TOKEN = 'dashboard-token-a';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let dir: string;
let browser: Browser;
let open: Sandbox;
let openUrl: string;
let issued: Sandbox;
let issuedUrl: string;
let receiver: Server;
let receiverUrl: string;
/** The paths the receiver was sent, in order. */
const received: string[] = [];

/** A page that records every request it makes and every script or console error (a CSP violation is one). */
async function newPage(): Promise<{ page: Page; requests: string[]; problems: string[] }> {
  const page = await browser.newPage({ viewport: WIDE });
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    // Note: the browser reports every error status on its console (a refused sign-in's 401, a fault's 500); the page
    // shows those itself. Anything else, a refused script or request of the CSP included, is a problem.
    if (
      message.type() === 'error' &&
      !/^Failed to load resource: the server responded with a status of/.test(message.text())
    )
      problems.push(`console error: ${message.text()}`);
  });
  return { page, requests, problems };
}

/** Runs axe-core in the page (evaluated over the DevTools protocol, so the page's CSP still refuses inline scripts). */
async function axe(page: Page, view: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const { violations } = await (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe.run();
    return violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  const summary = violations.map((v) => `${v.id} (${v.impact}, ${v.nodes})`).join(', ') || 'none';
  console.log(`axe-core on ${view}: ${violations.length} violation(s): ${summary}`);
  expect(
    violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
    `axe-core on ${view}`,
  ).toEqual([]);
}

async function shoot(page: Page, name: string, what: string): Promise<void> {
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`screenshot: ${file} (${what})`);
}

async function signInA(page: Page, url: string, token: string): Promise<void> {
  await page.goto(`${url}/_dashboard/`);
  await page.getByLabel('Variant A').check();
  await page.getByLabel('Access token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function signInB(page: Page, url: string, publicKey: string, secretKey: string): Promise<void> {
  await page.goto(`${url}/_dashboard/`);
  await page.getByLabel('Variant B').check();
  await page.getByLabel('Public key').fill(publicKey);
  await page.getByLabel('Secret key').fill(secretKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The page after sign-in shows the views' navigation; before, only the form. */
const signedIn = (page: Page) => page.getByRole('navigation', { name: 'Views' });

beforeAll(async () => {
  // Note: playwright-core never downloads a browser; CHROMIUM_PATH overrides the usual places (see chromium.ts).
  const executablePath = findChromium();
  dir = mkdtempSync(path.join(os.tmpdir(), 'dashboard-'));
  const assets = path.join(dir, 'dashboard');
  buildDashboard(assets);
  receiver = createServer((request, response) => {
    received.push(request.url ?? '');
    request.resume();
    request.on('end', () => response.end('ok'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;
  open = createSandbox({ dashboard: { assets } });
  ({ url: openUrl } = await open.listen({ port: 0 }));
  issued = createSandbox({ auth: 'issued', dashboard: { assets } });
  ({ url: issuedUrl } = await issued.listen({ port: 0 }));
  browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
  mkdirSync(screenshots, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await open?.close();
  await issued?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

describe('the built dashboard', () => {
  it('weighs less than its budget gzipped, and its index.html loads only files of its own, with no inline script', () => {
    const sizes = gzippedSizes(path.join(dir, 'dashboard'));
    const total = sizes.reduce((sum, { bytes }) => sum + bytes, 0);
    console.log(
      `dashboard assets, gzipped: ${total} bytes (${sizes.map(({ file, bytes }) => `${file} ${bytes}`).join(', ')})`,
    );
    expect(sizes.map(({ file }) => file)).toContain('index.html');
    expect(total).toBeLessThan(DASHBOARD_GZIP_BUDGET);
    const index = readFileSync(path.join(dir, 'dashboard', 'index.html'), 'utf8');
    const scripts = [...index.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\ssrc="\/_dashboard\/assets\/[^"]+\.js"/);
      expect(body!.trim()).toBe('');
    }
    expect(index).not.toMatch(/\sstyle=|<style/);
    // The page pulls no Node-only module (Vite would stub it as __vite-browser-external) and never names the admin API.
    for (const { file } of sizes.filter(({ file }) => file.endsWith('.js')))
      expect(readFileSync(path.join(dir, 'dashboard', file), 'utf8')).not.toMatch(/__vite-browser-external|["']node:/);
    for (const { file } of sizes)
      expect(readFileSync(path.join(dir, 'dashboard', file), 'utf8')).not.toContain('/_admin');
  });
});

describe('the dashboard in issued mode', () => {
  it('shows only the sign-in form to a load with no credentials or wrong ones, and lets an issued tenant in with Variant B', async () => {
    const { page, problems } = await newPage();
    const response = await page.goto(`${issuedUrl}/_dashboard/`);
    expect(response?.headers()['content-security-policy']).toBe(DASHBOARD_CSP);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await signedIn(page).count()).toBe(0);
    await axe(page, 'the sign-in form');

    // Wrong credentials kept in the tab from before: refused on load, forgotten, and only the form is shown.
    await page.evaluate(
      ([key, value]) => sessionStorage.setItem(key!, value!),
      [STORAGE_KEY, JSON.stringify({ variant: 'A', accessToken: 'sbx_at_not-issued' })],
    );
    await page.reload();
    await expect.poll(() => page.getByRole('alert').first().innerText()).toMatch(/^Unauthorized: These credentials/);
    expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await signedIn(page).count()).toBe(0);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), STORAGE_KEY)).toBeNull();

    // Wrong credentials typed in: the API's problem is shown, nothing is kept.
    await signInB(page, issuedUrl, 'sbx_pk_AAAAAAAAAAAAAAAAAAAAAA', 'sbx_sk_wrong');
    await expect.poll(() => page.getByRole('alert').first().innerText()).toMatch(/^Unauthorized: /);
    expect(await signedIn(page).count()).toBe(0);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), STORAGE_KEY)).toBeNull();

    const tenant = await issued.store.registry!.create(Date.now());
    await signInB(page, issuedUrl, tenant.publicKey, tenant.secretKey);
    await expect.poll(() => signedIn(page).isVisible()).toBe(true);
    expect(await page.locator('.brand').innerText()).toContain('Variant B');
    await expect.poll(() => page.locator('caption').first().innerText()).toBe('No payments yet.');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the dashboard in open mode', () => {
  it('is used with the keyboard alone, and shows where the focus is', async () => {
    const { page, problems } = await newPage();
    await page.goto(`${openUrl}/_dashboard/`);
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    // Tab to the variant, on to the access token, type it, and Enter signs in.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('A');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('access-token');
    await page.keyboard.type('dashboard-token-keys');
    await page.keyboard.press('Enter');
    await expect.poll(() => signedIn(page).isVisible()).toBe(true);
    // The focused control has a visible ring: the style sheet's :focus-visible outline.
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement!);
      return { tag: document.activeElement!.tagName, style: style.outlineStyle, width: style.outlineWidth };
    });
    expect(ring).toEqual({ tag: 'INPUT', style: 'solid', width: '3px' });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows a payment made through the API, moves it with Advance, shows the delivery attempt, and redelivers it', async () => {
    const { page, requests, problems } = await newPage();
    await signInA(page, openUrl, TOKEN);
    await expect.poll(() => signedIn(page).isVisible()).toBe(true);
    await axe(page, 'the payments list (empty)');

    // A webhook endpoint added in the page, to a receiver on 127.0.0.1; its secret is shown this once.
    await page.getByRole('link', { name: 'Webhook endpoints' }).click();
    await page.getByLabel('Endpoint URL').fill(receiverUrl);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect.poll(() => page.locator('.secret-value').innerText()).toMatch(/^whsec_/);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr td').nth(1).innerText()).toBe(receiverUrl);
    await axe(page, 'the webhook endpoints');

    const client = createVariantAClient({ baseUrl: openUrl, accessToken: TOKEN });
    const { data } = await client.POST('/payments', {
      body: { amount: '42.50', currency: 'EUR', requisite: { type: 'card' } },
    });
    const id = data!.data.id;
    expect(data!.data.status).toBe('created');

    await page.getByRole('link', { name: 'Payments' }).click();
    const row = page.locator('tbody tr', { has: page.getByRole('link', { name: id }) });
    await expect.poll(() => row.locator('td').nth(1).innerText()).toBe('created');
    expect(await row.locator('td').nth(2).innerText()).toBe('42.50 EUR');
    await page.getByLabel('Status').selectOption('succeeded');
    await expect.poll(() => page.locator('caption').first().innerText()).toBe('No payments in status succeeded yet.');
    await page.getByLabel('Status').selectOption('created');
    await expect.poll(() => row.count()).toBe(1);
    await shoot(
      page,
      'payments-list',
      'the payments list at 1400 px, one payment in status created, filtered by status',
    );

    await row.getByRole('link', { name: id }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(`Payment ${id}`);
    expect(await page.getByRole('heading', { name: 'Status history' }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText('No status change yet.').isVisible()).toBe(true);

    await page.getByLabel('Advance by').fill('5m');
    await page.getByRole('button', { name: 'Advance' }).click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toMatch(/^Advanced 300 s to /);
    const status = page.locator('.fields dt:text-is("status") + dd');
    await expect.poll(() => status.innerText()).not.toBe('created');
    const events = page.locator('section.event');
    await expect.poll(() => events.count()).toBeGreaterThan(0);
    // The first status change's event, with its delivery to the receiver: one attempt, answered 200.
    const first = events.last();
    expect(await first.locator('h3').innerText()).toMatch(/^created → pending/);
    const attempts = first.locator('tbody tr');
    await expect.poll(() => attempts.count()).toBe(1);
    expect(await attempts.first().locator('td').nth(3).innerText()).toBe('succeeded');
    expect(await attempts.first().locator('td').nth(4).innerText()).toBe('200');
    expect(await attempts.first().locator('td').nth(5).innerText()).toMatch(/^\d+ ms$/);
    expect(await page.locator('.fields dt:text-is("requested") + dd').innerText()).toBe('42.50 EUR');
    expect(received.length).toBe(await events.count());
    await axe(page, "a payment's page");
    await shoot(
      page,
      'payment-page',
      "a payment's page at 1400 px: fields, status history, each event's delivery and attempts",
    );

    const before = received.length;
    await first.getByRole('button', { name: /^Redeliver / }).click();
    await expect.poll(() => attempts.count()).toBe(2);
    expect(await attempts.nth(1).locator('td').first().innerText()).toBe('2');
    expect(await attempts.nth(1).locator('td').nth(4).innerText()).toBe('200');
    expect(received.length).toBe(before + 1);

    // The deliveries view lists the same deliveries, each with Redeliver.
    const eventCount = await events.count();
    await page.getByRole('link', { name: 'Deliveries' }).click();
    await expect.poll(() => page.locator('article.delivery').count()).toBe(eventCount);
    await axe(page, 'the deliveries');
    await page.getByRole('link', { name: 'Deliveries' }).click();
    await page.getByLabel('State').selectOption('failed');
    await expect.poll(() => page.locator('main p').last().innerText()).toMatch(/^No deliveries yet/);

    // Removing the endpoint in the page empties the list, read again from the API.
    await page.getByRole('link', { name: 'Webhook endpoints' }).click();
    await page.getByRole('button', { name: /^Remove we_/ }).click();
    await expect.poll(() => page.locator('caption').innerText()).toBe('No endpoints yet.');

    // The credentials travelled only as headers to this sandbox: no request left it, none named the token or /_admin.
    expect(requests.every((url) => url.startsWith(`${openUrl}/`))).toBe(true);
    expect(requests.filter((url) => url.includes(TOKEN) || url.includes('/_admin'))).toEqual([]);
    expect(page.url()).not.toContain(TOKEN);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  });

  it("fails the next API call with a fault added in the page, and shows the API's problem", async () => {
    const { page, problems } = await newPage();
    await signInA(page, openUrl, 'dashboard-token-faults');
    await expect.poll(() => signedIn(page).isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Faults' }).click();
    await page.getByLabel('Operation').selectOption('listPayments');
    await page.getByLabel('Kind').selectOption('server_error');
    await page.getByLabel('Count').fill('2');
    await page.getByRole('button', { name: 'Add fault' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr td').nth(3).innerText()).toBe('2 of 2');
    await axe(page, 'the faults');

    const client = createVariantAClient({ baseUrl: openUrl, accessToken: 'dashboard-token-faults', retry: false });
    const { error, response } = await client.GET('/payments');
    expect(response.status).toBe(500);
    expect(error).toMatchObject({ code: 'internal_error' });

    // The second is failed in the page, which shows the problem's title and detail.
    await page.getByRole('link', { name: 'Payments' }).click();
    await expect.poll(() => page.locator('section p.error').innerText()).toMatch(/^Internal server error: /i);
    expect((await client.GET('/payments')).response.status).toBe(200);

    await page.getByRole('link', { name: 'Faults' }).click();
    await page.getByRole('button', { name: 'Add fault' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear faults' }).click();
    await expect.poll(() => page.locator('caption').innerText()).toBe('No faults waiting.');
    expect((await client.GET('/payments')).response.status).toBe(200);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('signs in with Variant B, makes a test tenant, and forgets the credentials on sign-out', async () => {
    const { page, problems } = await newPage();
    await signInB(page, openUrl, 'pk_dashboard', 'sk_dashboard');
    await expect.poll(() => signedIn(page).isVisible()).toBe(true);
    expect(await page.locator('.brand').innerText()).toContain('Variant B');
    expect(await page.evaluate((key) => sessionStorage.getItem(key), STORAGE_KEY)).toContain('pk_dashboard');

    // Payouts and appeals have lists of their own, through Variant B's paths.
    for (const [link, caption] of [
      ['Payouts', 'No payouts yet.'],
      ['Appeals', 'No appeals yet.'],
    ] as const) {
      await page.getByRole('link', { name: link }).click();
      await expect.poll(() => page.locator('caption').innerText()).toBe(caption);
      expect(await page.getByLabel('Status').locator('option').count()).toBeGreaterThan(2);
    }

    await page.getByRole('link', { name: 'Test tenants' }).click();
    await page.getByRole('button', { name: 'Make a test tenant' }).click();
    const made = page.getByRole('region', { name: "New test tenant's credentials" });
    await expect.poll(() => made.locator('dd').first().innerText()).toMatch(/^sbx_at_/);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await axe(page, 'the test tenants');
    const tenantId = await page.locator('tbody tr td').first().innerText();

    // Signed in as the test tenant (another tab's session), making one is refused by the sandbox, and the page says
    // why in the API's words.
    const token = await made.locator('dd').first().innerText();
    const other = await newPage();
    await signInA(other.page, openUrl, token);
    await expect.poll(() => signedIn(other.page).isVisible()).toBe(true);
    await other.page.getByRole('link', { name: 'Test tenants' }).click();
    await other.page.getByRole('button', { name: 'Make a test tenant' }).click();
    await expect
      .poll(() => other.page.getByRole('alert').first().innerText())
      .toMatch(/^Forbidden: These credentials are a test tenant's, and a test tenant can't make test tenants/);
    await other.page.close();

    await page.getByRole('button', { name: `Revoke ${tenantId}` }).click();
    await expect.poll(() => page.locator('caption').innerText()).toBe('No test tenants.');

    // "Advance" by something that is not a duration is refused in the page with a message saying what to write.
    await page.getByLabel('Advance by').fill('soon');
    await page.getByRole('button', { name: 'Advance' }).click();
    await expect.poll(() => page.getByRole('alert').first().innerText()).toMatch(/^"soon" is not a duration/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await page.evaluate((key) => sessionStorage.getItem(key), STORAGE_KEY)).toBeNull();
    await page.reload();
    expect(await page.getByRole('button', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await signedIn(page).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
