// Browser test of the docs site: headless Chromium opens every page from a local server, as a reader would, the
// getting-started page first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstPage, guideOrder, maintainerPages } from '../../scripts/docs.mjs';
import { SECTIONS } from '../../scripts/lib/getting-started.mjs';
import { startStaticServer } from '../../scripts/lib/static-server.mjs';
import { root } from '../../scripts/lib/tools.mjs';
import { findChromium } from './chromium.js';

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const screenshots = path.join(root, 'artifacts/screenshots');
/** Where the getting-started page's screenshot goes, kept after the run (the test prints the path). */
const gettingStartedShot = path.join(os.tmpdir(), 'merchant-payments-docs', 'getting-started.png');
/** Text for the maintainers, which no page of the merchants' site shows. */
const MAINTAINER_NOTES =
  /npm run regenerate|do not edit it by hand|npm run bench|npm start\b|readme-test|run by the test/i;
/** The guides the site builds: every docs/*.md but the API team's own pages. */
const siteGuides = readdirSync(path.join(root, 'docs')).filter(
  (f) => f.endsWith('.md') && !maintainerPages.includes(f.replace(/\.md$/, '')),
);
const titleOf = (markdown: string) => /^# (.+)$/m.exec(markdown)?.[1]?.replace(/`/g, '') ?? '';

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

async function open(file: string): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
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
  expect(response?.status()).toBe(200);
  return { page, problems };
}

// Note: every page links to every other (the navigation), so each target is fetched once for the whole file.
const statuses = new Map<string, Promise<number>>();
/** The status the docs server answers for `href`, fetched once. */
function statusOf(page: Page, href: string): Promise<number> {
  let status = statuses.get(href);
  if (!status) {
    status = page.request.get(`${server.url}/${href}`).then((answer) => answer.status());
    statuses.set(href, status);
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
  it("is the first link of every page, shows the README's install and quickstart as written, and only text for merchants", async () => {
    const { page, problems } = await open(firstPage);
    await expectVisible(page, 'h1:has-text("Getting started")', 'the title');
    const nav = await page
      .locator('header a:not(.home)')
      .evaluateAll((links) => links.map((a) => ({ href: a.getAttribute('href'), label: a.textContent })));
    expect(nav[0]).toEqual({ href: firstPage, label: 'Getting started' });
    expect(await page.locator('header a[aria-current="page"]').textContent()).toBe('Getting started');
    // Every guide in the header is labelled with its page's title, not its file's name.
    for (const { href, label } of nav.filter(
      (link) => link.href !== firstPage && existsSync(path.join(root, 'docs', link.href!.replace(/\.html$/, '.md'))),
    )) {
      expect(label, href!).toBe(
        titleOf(readFileSync(path.join(root, 'docs', href!.replace(/\.html$/, '.md')), 'utf8')),
      );
    }
    // The README's commands and files of those sections, in its order, on the page.
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const sections = readme
      .split(/^(?=## )/m)
      .filter((part) => SECTIONS.some((title) => part.startsWith(`## ${title}\n`)));
    const blocks = sections.flatMap((part) =>
      [...part.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((match) => match[1]!),
    );
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const shown = await page.locator('main pre code').allTextContents();
    expect(shown).toEqual(blocks);
    for (const heading of ['Install', 'Quickstart', 'Variant A', 'Variant B'])
      await expectVisible(page, `main h2:has-text("${heading}"), main h3:has-text("${heading}")`, heading);
    expect(await page.locator('main').innerText()).not.toMatch(MAINTAINER_NOTES);
    for (const href of await page
      .locator('main a')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''))) {
      if (!/^([a-z]+:|#)/i.test(href)) expect(await statusOf(page, href.replace(/#.*$/, '')), href).toBe(200);
    }
    mkdirSync(path.dirname(gettingStartedShot), { recursive: true });
    await page.screenshot({ path: gettingStartedShot, fullPage: true });
    console.log(`the getting-started page's screenshot: ${gettingStartedShot}`);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the index page', () => {
  it('links to every reference and to every guide, and every link answers', async () => {
    const { page, problems } = await open('index.html');
    await expectVisible(page, 'h1', 'the title');
    const hrefs = await page.locator('main a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    const guides = siteGuides.map((f) => f.replace(/\.md$/, '.html'));
    for (const name of guideOrder) expect(guides).toContain(`${name}.html`);
    // The getting-started page is the index's first link.
    expect(hrefs[0]).toBe(firstPage);
    expect(hrefs).toEqual(
      expect.arrayContaining([
        'variant-a.html',
        'variant-b.html',
        'sandbox.html',
        'admin.html',
        'openapi/variant-a.yaml',
        'openapi/variant-b.yaml',
        'openapi/sandbox.yaml',
        'openapi/admin.yaml',
        ...guides,
      ]),
    );
    // The API team's own pages stay in the repository.
    for (const name of maintainerPages)
      expect((await page.request.get(`${server.url}/${name}.html`)).status(), name).toBe(404);
    for (const href of hrefs) {
      const answer = await page.request.get(`${server.url}/${href}`);
      expect(answer.status(), href ?? '').toBe(200);
    }
    await page.screenshot({ path: path.join(screenshots, 'index.png') });
    expect(problems).toEqual([]);
    await page.close();
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
    await page.screenshot({ path: path.join(screenshots, `${variant}.png`) });
    for (const { operationId, summary, tag } of operations) {
      // Note: Redoc routes every operation to #/<tag>/<operationId in lower case>, as its own menu links do.
      await page.goto(
        `${server.url}/${variant}.html#/${tag.toLowerCase().replaceAll(' ', '-')}/${operationId.toLowerCase()}`,
      );
      await expectVisible(page, headingLink(summary), `${operationId} ("${summary}")`);
    }
    await page.screenshot({ path: path.join(screenshots, `${variant}-last-operation.png`) });
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
    await page.screenshot({ path: path.join(screenshots, `${variant}-webhook.png`) });
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
  const guides = siteGuides;

  // Note: each guide gets a page of its own in the one browser, so they run side by side (most of the time is
  // spent waiting for the linked references to download).
  it.concurrent.for(guides)('%s renders with its title, and its links answer', async (file, { expect }) => {
    const markdown = readFileSync(path.join(root, 'docs', file), 'utf8');
    const title = titleOf(markdown);
    const name = file.replace(/\.md$/, '');
    const { page, problems } = await open(`${name}.html`);
    await expectVisible(page, `h1:has-text(${JSON.stringify(title)})`, `the title "${title}"`);
    expect(await page.locator('main').innerText(), `${file} shows text for the maintainers`).not.toMatch(
      MAINTAINER_NOTES,
    );
    const hrefs = await page.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
    for (const href of hrefs.filter((h) => !/^([a-z]+:|#)/i.test(h))) {
      expect(await statusOf(page, href.replace(/#.*$/, '')), `${file} links to ${href}`).toBe(200);
    }
    await page.screenshot({ path: path.join(screenshots, `guide-${name}.png`), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});
