// Builds the docs site: a getting-started page made from the README, Redoc HTML per API in redocly.yaml (renders
// offline), the guides from docs/*.md (the API team's own pages aside), and an index.
//   node scripts/docs.mjs [--out <dir>]   (default docs/site)
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { apis } from './lib/apis.mjs';
import { GETTING_STARTED, gettingStartedMarkdown, repositoryWebUrl, siteHref } from './lib/getting-started.mjs';
import { escapeHtml, layout, renderGuide } from './lib/site.mjs';
import { requireFile, root, runTool } from './lib/tools.mjs';

/** Where `npm run docs` writes the site, relative to the repository root. */
export const defaultOutDir = 'docs/site';

/** The guides in reading order; any other docs/*.md follows, alphabetically. */
export const guideOrder = [
  'authentication',
  'idempotency',
  'errors',
  'typescript-errors',
  'pagination',
  'webhooks',
  'variants',
  'mock',
  'sandbox-guide',
  'sandbox-values',
  'testing',
  'operations',
  'hosting',
  'conformance',
  'conformance-checks',
  'cli',
  'assumptions',
];

/** The API team's own pages in docs/: linked from CONTRIBUTING.md, not part of the merchants' site (nor of the package). */
export const maintainerPages = ['benchmarks'];

/** The site's first page, made from the README's install and quickstart sections (scripts/lib/getting-started.mjs). */
export const firstPage = `${GETTING_STARTED}.html`;

const SITE_TITLE = 'Merchant payments API';
const THEME = 'docs/theme';
const MARKER = '.built-by-npm-run-docs';
// Note: Redoc's "API docs by Redocly" badge loads its logo from a CDN; the same wordmark as an inline SVG keeps the
// attribution and lets the page render without any request leaving the docs server.
const LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="56" height="14" viewBox="0 0 56 14">' +
    '<text x="0" y="11" font-family="sans-serif" font-size="11" font-weight="600" fill="#0044d4">Redocly</text></svg>',
)}`;

/** Builds the whole site into `outDir`; returns the pages written: [{ file, title, kind }]. */
export function buildDocs({ outDir = path.join(root, defaultOutDir) } = {}) {
  prepare(outDir);
  const references = Object.entries(apis).map(([name, api]) => buildReference(name, api, outDir));
  const taken = new Set(['index.html', ...references.map((reference) => reference.file)]);
  const clash = guideFiles().find((file) => taken.has(`${path.basename(file, '.md')}.html`));
  // Note: a guide named like a reference (docs/sandbox.md) would overwrite that reference's page.
  if (clash)
    throw new Error(
      `docs/${clash} would be written over the page ${path.basename(clash, '.md')}.html of a reference or the index; rename the guide`,
    );
  const pkg = JSON.parse(readFileSync(path.join(root, 'packages/contract/package.json'), 'utf8'));
  const start = gettingStarted(pkg);
  const guides = guideFiles().map((file) => ({
    ...renderGuide(readFileSync(path.join(root, 'docs', file), 'utf8'), `docs/${file}`),
    file: `${path.basename(file, '.md')}.html`,
    kind: 'guide',
  }));
  const nav = navOf(start, references, guides);
  const footer = `The <code>@merchant-payments/*</code> packages, ${escapeHtml(pkg.version)}: the contract's bundled OpenAPI files and the guides to them.`;
  for (const page of [start, ...guides]) {
    writeFileSync(
      path.join(outDir, page.file),
      layout({ title: page.title, siteTitle: SITE_TITLE, nav, current: page.file, content: page.html, footer }),
    );
  }
  const index = buildIndex(outDir, start, references, guides, nav, footer);
  return [index, start, ...references, ...guides].map(({ file, title, kind }) => ({ file, title, kind }));
}

// Note: made from the README when the site is built, so that its install and quickstart never differ from the README's.
function gettingStarted(pkg) {
  const web = repositoryWebUrl(pkg);
  const page = renderGuide(gettingStartedMarkdown(readFileSync(path.join(root, 'README.md'), 'utf8')), 'README.md', {
    href: (href) => siteHref(href, web),
  });
  return { ...page, file: firstPage, kind: 'guide' };
}

// Clears a previous build; refuses to clear a non-empty folder that is not one.
function prepare(outDir) {
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    if (!existsSync(path.join(outDir, MARKER))) {
      throw new Error(`${outDir} is not empty and holds no previous docs build; choose an empty or new folder.`);
    }
    rmSync(outDir, { recursive: true, force: true });
  }
  mkdirSync(path.join(outDir, 'openapi'), { recursive: true });
  writeFileSync(path.join(outDir, MARKER), 'Written by npm run docs; the whole folder is replaced on every build.\n');
  requireFile(`${THEME}/favicon.svg`);
  copyFileSync(path.join(root, THEME, 'favicon.svg'), path.join(outDir, 'favicon.svg'));
}

function buildReference(name, api, outDir) {
  requireFile(api.output, 'run npm run bundle first');
  const spec = path.join(root, api.output);
  const { info } = parse(readFileSync(spec, 'utf8'));
  const file = `${name}.html`;
  const target = path.join(outDir, file);
  const template = path.join(root, THEME, 'redoc.hbs');
  requireFile(path.relative(root, template));
  const args = ['build-docs', spec, '--inlineBundle', '--openapi.disableTelemetry=true', '--template', template];
  const { status, stderr } = runTool('@redocly/cli', 'redocly', [...args, '--title', info.title, '--output', target], {
    capture: true,
  });
  if (status !== 0) throw new Error(`redocly build-docs ${name} failed:\n${stderr}`);
  const html = readFileSync(target, 'utf8').replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g, LOGO);
  writeFileSync(target, html);
  copyFileSync(spec, path.join(outDir, 'openapi', path.basename(api.output)));
  return {
    file,
    title: info.title,
    summary: info.summary ?? '',
    kind: 'reference',
    spec: `openapi/${path.basename(api.output)}`,
  };
}

function guideFiles() {
  const rank = (file) => {
    const i = guideOrder.indexOf(path.basename(file, '.md'));
    return i === -1 ? guideOrder.length : i;
  };
  const files = readdirSync(path.join(root, 'docs')).filter(
    (f) => f.endsWith('.md') && !maintainerPages.includes(path.basename(f, '.md')),
  );
  if (files.includes(`${GETTING_STARTED}.md`))
    throw new Error(`docs/${GETTING_STARTED}.md would be written over the page made from the README; rename the guide`);
  for (const name of guideOrder)
    requireFile(`docs/${name}.md`, name === 'assumptions' ? 'run npm run assumptions first' : 'a guide the site lists');
  return files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

function buildIndex(outDir, start, references, guides, nav, footer) {
  const card = ({ file, title, summary }, extra = '') =>
    `<li><a href="${escapeHtml(file)}">${escapeHtml(title)}</a><p>${escapeHtml(summary)}</p>${extra}</li>`;
  const content = `<h1>${SITE_TITLE}</h1>
<p class="start"><a href="${escapeHtml(start.file)}">${escapeHtml(start.title)}</a>: install
<code>@merchant-payments/contract</code> and make your first calls against the contract mock, in a few minutes.</p>
<p>The contract of the merchant payments interface in its two published layouts: Variant A (bearer token, no
path prefix) and Variant B (key-pair headers, every path under <code>/merchant/v1</code>). Elements the source
description does not state are marked as assumptions, each with its reason.</p>
<p>The sandbox control reference describes <code>/_sandbox</code>, the test-control API of this package's local
sandbox (clock, events, webhook deliveries, forced statuses, faults). The sandbox admin reference describes
<code>/_admin</code>, the hosted sandbox's provisioning API (tenants, their credentials, rotation and revocation),
served only when <code>SANDBOX_ADMIN_TOKEN</code> is set. Neither is part of the interface: both documents are
this project's own design.</p>
<h2 id="reference">API reference</h2>
<ul class="cards">
${references.map((r) => card(r, `<p><a href="${escapeHtml(r.spec)}">Bundled OpenAPI file</a></p>`)).join('\n')}
</ul>
<h2 id="guides">Guides</h2>
<ul class="cards">
${[start, ...guides].map((g) => card(g)).join('\n')}
</ul>`;
  writeFileSync(
    path.join(outDir, 'index.html'),
    layout({ title: SITE_TITLE, siteTitle: SITE_TITLE, nav, current: 'index.html', content, footer }),
  );
  return { file: 'index.html', title: SITE_TITLE, kind: 'index' };
}

/** The header's links: the getting-started page, each reference, then the guides in reading order, each by its title. */
function navOf(start, references, guides) {
  const byName = new Map(guides.map((guide) => [path.basename(guide.file, '.html'), guide]));
  return [
    { href: start.file, label: start.title },
    ...references.map(({ file, title }) => ({ href: file, label: title.replace(/^.*\((.*)\)$/, '$1') })),
    ...guideOrder.map((name) => ({ href: `${name}.html`, label: byName.get(name).title })),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const { values } = parseArgs({ options: { out: { type: 'string' } } });
    const outDir = path.resolve(values.out ?? path.join(root, defaultOutDir));
    const started = Date.now();
    const pages = buildDocs({ outDir });
    for (const page of pages)
      console.log(
        `  ${page.kind.padEnd(9)} ${path.relative(process.cwd(), path.join(outDir, page.file))}  ${page.title}`,
      );
    console.log(`built ${pages.length} pages in ${Date.now() - started} ms`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
