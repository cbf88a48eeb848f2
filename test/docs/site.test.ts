// Browser test of the docs site: headless Chromium opens every page from a local server, as a reader would, with every
// request that leaves that server refused. The getting-started page first, then the sidebar, search, the width of every
// page at a desktop's and a phone's width, the Redoc reference pages and the guides.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencePages, sidebar } from '../../docs/.vitepress/sidebar.mjs';
import { firstPage, maintainerPages, siteGuides } from '../../scripts/docs.mjs';
import { SECTIONS } from '../../scripts/lib/getting-started.mjs';
import { startStaticServer } from '../../scripts/lib/static-server.mjs';
import { root } from '../../scripts/lib/tools.mjs';
import { CHROMIUM_FLAGS, findChromium } from './chromium.js';

/** Where the screenshots go, kept after the run (the test prints their paths). */
const screenshots = path.join(os.tmpdir(), 'merchant-payments-docs');
const WIDE = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Text for the maintainers, which no page of the merchants' site shows. */
const MAINTAINER_NOTES =
  /npm run regenerate|do not edit it by hand|npm run bench|npm start\b|readme-test|run by the test/i;
/** The VitePress pages: every guide, the getting-started page and the home page. */
const guidePages = siteGuides().map((f) => f.replace(/\.md$/, '.html'));
const titleOf = (markdown: string) => /^# (.+)$/m.exec(markdown)?.[1]?.replace(/`/g, '') ?? '';
const sidebarLinks = sidebar.flatMap((group) => group.items.map((item) => ({ group: group.text, ...item })));

interface Operation {
  operationId: string;
  summary: string;
  tag: string;
}

/** Every operation and webhook of a bundled spec, with the summary Redoc shows as its heading. */
function operationsOf(file: string): Operation[] {
  const doc = parse(readFileSync(path.join(root, file), 'utf8'));
  const all = [...Object.values(doc.paths ?? {}), ...Object.values(doc.webhooks ?? {})] as Record<string, any>[];
  return all.flatMap((item) =>
    Object.values(item)
      .filter((op) => op && typeof op === 'object' && typeof op.operationId === 'string')
      .map((op) => ({ operationId: op.operationId, summary: op.summary, tag: op.tags[0] })),
  );
}

/** What went wrong on a page: script errors, console errors and any request that tried to leave the docs server. */
interface Watched {
  page: Page;
  problems: string[];
}

let dir: string;
let site: string;
let server: Awaited<ReturnType<typeof startStaticServer>>;
let browser: Browser;

async function open(file: string, viewport = WIDE): Promise<Watched> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  // Note: the pages must render offline; anything fetched from elsewhere (a CDN, telemetry) is refused and reported.
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${server.url}/`)) return route.continue();
    problems.push(`request outside the docs server: ${url}`);
    return route.abort();
  });
  const response = await page.goto(`${server.url}/${file}`, { waitUntil: 'load' });
  expect(response?.status(), file).toBe(200);
  // Note: keys and clicks do nothing on a VitePress page until Vue has taken over the server-rendered HTML.
  if (!referencePages.some((p) => p.file === file.replace(/#.*$/, '')))
    await page.waitForFunction(() => '__vue_app__' in document.querySelector('#app')!, null, { timeout: 15_000 });
  return { page, problems };
}

// Note: every page links to every other (the sidebar), so each target is fetched once for the whole file.
const statuses = new Map<string, Promise<number>>();
/** The status the docs server answers for `href` (relative to the site's root), fetched once. */
function statusOf(page: Page, href: string): Promise<number> {
  const target = new URL(href, `${server.url}/`).pathname;
  let status = statuses.get(target);
  if (!status) {
    status = page.request.get(`${server.url}${target}`).then((answer) => answer.status());
    statuses.set(target, status);
  }
  return status;
}

/** Resolves once the element is visible; fails the test if it does not become visible. */
async function expectVisible(page: Page, selector: string, what: string): Promise<void> {
  const locator = page.locator(selector).first();
  await locator.waitFor({ state: 'visible', timeout: 15_000 }).catch(() => {
    throw new Error(`${what} is not visible on ${page.url()}`);
  });
  expect(await locator.isVisible()).toBe(true);
}

/** How far the page scrolls sideways, in CSS pixels: 0 when nothing is wider than the window. */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Takes a screenshot into the kept folder and prints its path. */
async function shoot(page: Page, name: string): Promise<void> {
  const file = path.join(screenshots, `${name}.png`);
  await page.screenshot({ path: file });
  console.log(`screenshot: ${file}`);
}

/** Fails when `href`, a link on the page `from`, names an #anchor that no heading of its target page has. */
function expectAnchor(from: string, href: string): void {
  const url = new URL(href, `${server.url}/${from}`);
  const target = url.pathname.slice(1);
  const anchor = decodeURIComponent(url.hash.slice(1));
  // Note: the VitePress pages' ids are GitHub's, so the same link works in the repository; Redoc routes its own.
  if (!anchor || !target.endsWith('.html') || referencePages.some((p) => p.file === target)) return;
  expect(readFileSync(path.join(site, target), 'utf8'), `${from} links to ${href}`).toContain(`id="${anchor}"`);
}

const headingLink = (summary: string) => `h2:has(a[aria-label=${JSON.stringify(`link to ${summary}`)}])`;

beforeAll(async () => {
  // Note: playwright-core never downloads a browser; CHROMIUM_PATH overrides the usual places (see chromium.ts).
  const executablePath = findChromium();
  dir = mkdtempSync(path.join(os.tmpdir(), 'docs-site-'));
  site = path.join(dir, 'site');
  const build = spawnSync(process.execPath, ['scripts/docs.mjs', '--out', site], { cwd: root, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  server = await startStaticServer({ dir: site, port: 0, host: '127.0.0.1' });
  browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS });
  mkdirSync(screenshots, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

// Note: the first page a reader opens, so the first this file opens.
describe('the getting-started page', () => {
  it("shows the README's install and quickstart as written, highlighted, and only text for merchants", async () => {
    const { page, problems } = await open(firstPage);
    await expectVisible(page, 'h1:has-text("Getting started")', 'the title');
    // The README's commands and files of those sections, in its order, on the page.
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const sections = readme
      .split(/^(?=## )/m)
      .filter((part) => SECTIONS.some((title) => part.startsWith(`## ${title}\n`)));
    const blocks = sections.flatMap((part) =>
      [...part.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => match[1]!.trimEnd()),
    );
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const shown = await page.locator('.vp-doc div[class*="language-"] pre code').allTextContents();
    expect(shown.map((text) => text.trimEnd())).toEqual(blocks);
    // Shiki colours the code, and each block has a copy button.
    expect(await page.locator('.vp-doc pre.shiki code span[style*="--shiki"]').count()).toBeGreaterThan(20);
    expect(await page.locator('.vp-doc div[class*="language-"] button.copy').count()).toBe(blocks.length);
    for (const heading of ['Install', 'Quickstart', 'Variant A', 'Variant B'])
      await expectVisible(page, `.vp-doc h2:has-text("${heading}"), .vp-doc h3:has-text("${heading}")`, heading);
    expect(await page.locator('.vp-doc').innerText()).not.toMatch(MAINTAINER_NOTES);
    for (const href of await page
      .locator('.vp-doc a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))) {
      if (/^([a-z]+:|#)/i.test(href)) continue;
      expect(await statusOf(page, href.replace(/#.*$/, '')), href).toBe(200);
      expectAnchor(firstPage, href);
    }
    await shoot(page, 'getting-started-1400');
    expect(problems).toEqual([]);
    await page.close();
    const phone = await open(firstPage, PHONE);
    expect(await sidewaysScroll(phone.page)).toBe(0);
    await shoot(phone.page, 'getting-started-390');
    expect(phone.problems).toEqual([]);
    await phone.page.close();
  });
});

describe('the sidebar', () => {
  it('groups the pages by task, lists every guide and reference, and every link answers', async () => {
    const { page, problems } = await open('errors.html');
    const groups = await page.locator('.VPSidebar .VPSidebarItem.level-0 > .item h2').allTextContents();
    expect(groups.map((text) => text.trim())).toEqual([
      'Get started',
      'Integrate',
      'Test',
      'Operate',
      'Check a server',
      'Reference',
    ]);
    const links = await page
      .locator('.VPSidebar a')
      .evaluateAll((anchors) => anchors.map((a) => ({ href: a.getAttribute('href')!, text: a.textContent.trim() })));
    expect(links.map((link) => link.text)).toEqual(sidebarLinks.map((item) => item.text));
    const hrefs = links.map((link) => link.href.replace(/^\//, ''));
    // Every page the site builds is in the sidebar, and the API team's own pages are not built at all.
    expect([...hrefs].sort()).toEqual(
      [...guidePages.filter((file) => file !== 'index.html'), firstPage, ...referencePages.map((p) => p.file)].sort(),
    );
    for (const href of hrefs) expect(await statusOf(page, href), href).toBe(200);
    for (const name of maintainerPages) expect(await statusOf(page, `${name}.html`), name).toBe(404);
    // The current page is marked, and a reference page opens as a page of its own rather than through the router.
    expect((await page.locator('.VPSidebar .is-active a').first().textContent())?.trim()).toBe('Errors');
    await page.locator('.VPSidebar a', { hasText: 'Variant B' }).click();
    await page.waitForURL(`${server.url}/variant-b.html`);
    await expectVisible(page, 'h1:has-text("Variant B")', 'the Variant B reference');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('is a menu on a phone, with the same links', async () => {
    const { page, problems } = await open('webhooks.html', PHONE);
    // Note: the closed sidebar is moved out of the window rather than hidden.
    const right = async () => page.locator('.VPSidebar').evaluate((el) => el.getBoundingClientRect().right);
    expect(await right()).toBeLessThanOrEqual(0);
    await page.locator('.VPLocalNav button.menu').click();
    await expectVisible(page, '.VPSidebar.open a:has-text("Idempotency")', 'the sidebar opened from the menu');
    await expect.poll(right).toBeGreaterThan(0);
    await page.locator('.VPSidebar a', { hasText: 'Idempotency' }).click();
    await page.waitForURL(`${server.url}/idempotency.html`);
    await expectVisible(page, 'h1:has-text("Idempotency")', 'the idempotency guide');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('search', () => {
  it.for([
    { key: 'Control+k', from: 'pagination.html' },
    { key: '/', from: 'getting-started.html' },
  ])('opens with $key and finds the idempotency guide by a word in its text', async ({ key, from }) => {
    const { page, problems } = await open(from);
    await page.keyboard.press(key);
    const input = page.locator('.VPLocalSearchBox input');
    await input.waitFor({ state: 'visible', timeout: 15_000 });
    await input.fill('idempotency');
    const first = page.locator('.VPLocalSearchBox .results li a').first();
    await first.waitFor({ state: 'visible', timeout: 15_000 });
    const hrefs = await page
      .locator('.VPLocalSearchBox .results li a')
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs[0]).toMatch(/^\/idempotency\.html(#|$)/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/idempotency\.html/);
    await expectVisible(page, 'h1:has-text("Idempotency")', 'the idempotency guide');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the home page', () => {
  it('leads to the getting-started page and both references, and every link answers', async () => {
    const { page, problems } = await open('index.html');
    await expectVisible(page, '.VPHero', 'the hero');
    const hrefs = await page
      .locator('.VPHome a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs).toEqual(expect.arrayContaining(['/getting-started.html', '/variant-a.html', '/variant-b.html']));
    for (const href of hrefs) expect(await statusOf(page, href), href).toBe(200);
    expect(problems).toEqual([]);
    await page.close();
    const phone = await open('index.html', PHONE);
    expect(await sidewaysScroll(phone.page)).toBe(0);
    expect(phone.problems).toEqual([]);
    await phone.page.close();
  });

  it("follows the system's dark mode", async () => {
    for (const colorScheme of ['dark', 'light'] as const) {
      const page = await browser.newPage({ viewport: WIDE, colorScheme });
      await page.route('**/*', (route) =>
        route.request().url().startsWith(`${server.url}/`) ? route.continue() : route.abort(),
      );
      await page.goto(`${server.url}/index.html`);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark')), colorScheme).toBe(
        colorScheme === 'dark',
      );
      await page.close();
    }
  });
});

/** The project's own documents (not the interface's): an operation to open, and the security schemes they show. */
interface OwnDocument {
  route: string;
  summary: string;
  schemes: string[];
}

const references: { variant: string; spec: string; webhooks: boolean; minOperations: number; own?: OwnDocument }[] = [
  {
    variant: 'variant-a',
    spec: 'packages/contract/generated/openapi/variant-a.yaml',
    webhooks: true,
    minOperations: 10,
  },
  {
    variant: 'variant-b',
    spec: 'packages/contract/generated/openapi/variant-b.yaml',
    webhooks: true,
    minOperations: 10,
  },
  {
    variant: 'sandbox',
    spec: 'packages/contract/generated/openapi/sandbox.yaml',
    webhooks: false,
    minOperations: 10,
    own: { route: 'clock/advanceclock', summary: 'Advance Clock', schemes: ['bearerAuth', 'publicKey'] },
  },
  {
    variant: 'admin',
    spec: 'packages/contract/generated/openapi/admin.yaml',
    webhooks: false,
    minOperations: 5,
    own: { route: 'tenants/rotatetenantcredentials', summary: 'Rotate Tenant Credentials', schemes: ['adminToken'] },
  },
];

describe.each(references)('the $variant reference', ({ variant, spec, webhooks: hasWebhooks, minOperations, own }) => {
  const operations = operationsOf(spec);

  it('shows every operation and webhook by its summary, with no script error and nothing fetched from elsewhere', async () => {
    expect(operations.length).toBeGreaterThanOrEqual(minOperations);
    const { page, problems } = await open(`${variant}.html`);
    const title = parse(readFileSync(path.join(root, spec), 'utf8')).info.title as string;
    await expectVisible(page, `h1:has-text(${JSON.stringify(title)})`, 'the API title');
    for (const { operationId, summary, tag } of operations) {
      // Note: Redoc routes every operation to #/<tag>/<operationId in lower case>, as its own menu links do.
      await page.goto(
        `${server.url}/${variant}.html#/${tag.toLowerCase().replaceAll(' ', '-')}/${operationId.toLowerCase()}`,
      );
      await expectVisible(page, headingLink(summary), `${operationId} ("${summary}")`);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('links back to the guides, and scrolls sideways neither at 1400 px nor at 390 px', async () => {
    for (const [viewport, width] of [
      [WIDE, 1400],
      [PHONE, 390],
    ] as const) {
      const { page, problems } = await open(`${variant}.html`, viewport);
      const title = parse(readFileSync(path.join(root, spec), 'utf8')).info.title as string;
      await expectVisible(page, `h1:has-text(${JSON.stringify(title)})`, 'the API title');
      const back = page.locator('nav.site-bar a', { hasText: 'Back to the guides' });
      expect(await back.isVisible()).toBe(true);
      expect(await statusOf(page, (await back.getAttribute('href'))!)).toBe(200);
      expect(await sidewaysScroll(page), `${variant}.html at ${width} px`).toBe(0);
      if (variant === 'variant-a') await shoot(page, `variant-a-${width}`);
      if (width === 390) {
        await back.click();
        await page.waitForURL(`${server.url}/${firstPage}`);
        await expectVisible(page, 'h1:has-text("Getting started")', 'the getting-started page');
      }
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  // Note: a reader's first screen says what the API does and how to start; what is stated or assumed comes later.
  it.runIf(hasWebhooks)('opens with how to start, and keeps stated and assumed for further down', async () => {
    const { page, problems } = await open(`${variant}.html`);
    const top = async (text: string) => {
      const heading = page.locator(`h2:has-text(${JSON.stringify(text)})`).first();
      await heading.waitFor({ state: 'attached', timeout: 15_000 });
      return heading.evaluate((el) => el.getBoundingClientRect().top);
    };
    expect(await top('Start here')).toBeLessThan(WIDE.height);
    expect(await top('Reading this contract')).toBeGreaterThan(WIDE.height);
    await expectVisible(page, 'text=http://127.0.0.1:4020', 'the local sandbox server');
    expect(problems).toEqual([]);
    await page.close();
  });

  it.runIf(hasWebhooks)('shows the webhook section with both layouts of onStatusChange', async () => {
    const webhooks = operations.filter((op) => op.tag === 'Webhooks');
    expect(webhooks.map((op) => op.operationId).sort()).toEqual(['onStatusChange', 'onStatusChangeEarlier']);
    const { page, problems } = await open(`${variant}.html#/webhooks`);
    await expectVisible(page, headingLink('Webhooks'), 'the Webhooks section');
    for (const { operationId } of webhooks) {
      await expectVisible(page, `a[href="#/webhooks/${operationId.toLowerCase()}"]`, `the ${operationId} entry`);
    }
    await page.goto(`${server.url}/${variant}.html#/webhooks/onstatuschange`);
    await expectVisible(page, headingLink('On Status Change'), 'the onStatusChange operation');
    for (const header of ['X-Event-ID', 'X-Timestamp', 'X-Signature']) {
      await expectVisible(page, `a[aria-label="link to ${header}"]`, `the ${header} header`);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  // Note: the control and admin APIs are the project's own; their pages must say so before a reader takes them for
  // the service's.
  it.runIf(own !== undefined)(
    'says that the document is not part of the interface, and shows its credentials',
    async () => {
      const { page, problems } = await open(`${variant}.html`);
      await expectVisible(page, 'text=Not part of the merchant payments interface', 'the provenance statement');
      await page.goto(`${server.url}/${variant}.html#/${own!.route}`);
      await expectVisible(page, headingLink(own!.summary), own!.summary);
      for (const scheme of own!.schemes) {
        await expectVisible(page, `text=${scheme}`, `the ${scheme} security scheme`);
      }
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});

describe('the guides', () => {
  const guides = siteGuides().filter((file) => file !== 'index.md');

  // Note: each guide gets a page of its own in the one browser, so they run side by side.
  it.concurrent.for(guides)(
    '%s renders with its title, its links answer, search opens with /, and it fits 1400 px and 390 px',
    async (file, { expect }) => {
      const markdown = readFileSync(path.join(root, 'docs', file), 'utf8');
      const title = titleOf(markdown);
      const name = file.replace(/\.md$/, '');
      const { page, problems } = await open(`${name}.html`);
      await expectVisible(page, `h1:has-text(${JSON.stringify(title)})`, `the title "${title}"`);
      expect(await page.locator('.vp-doc').innerText(), `${file} shows text for the maintainers`).not.toMatch(
        MAINTAINER_NOTES,
      );
      const hrefs = await page
        .locator('.vp-doc a')
        .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
      for (const href of hrefs.filter((h) => !/^([a-z]+:|#)/i.test(h))) {
        expect(await statusOf(page, href.replace(/#.*$/, '')), `${file} links to ${href}`).toBe(200);
        expectAnchor(`${name}.html`, href);
      }
      expect(await sidewaysScroll(page), `${file} at 1400 px`).toBe(0);
      await page.keyboard.press('/');
      await expectVisible(page, '.VPLocalSearchBox input', 'the search box');
      await page.keyboard.press('Escape');
      await page.setViewportSize(PHONE);
      expect(await sidewaysScroll(page), `${file} at 390 px`).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
