// Builds the docs site: VitePress renders the guides (docs/*.md, the API team's own pages aside) and a getting-started
// page made from the README; Redoc HTML per API in redocly.yaml (rendering offline) and the bundled specs go beside.
//   node scripts/docs.mjs [--out <dir>]   (default docs/site)
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { build } from 'vitepress';
import { parse } from 'yaml';
import { referencePages } from '../docs/.vitepress/sidebar.mjs';
import { apis } from './lib/apis.mjs';
import { GETTING_STARTED, gettingStartedMarkdown, repositoryWebUrl, siteHref } from './lib/getting-started.mjs';
import { binPath, quietEnv, requireFile, root } from './lib/tools.mjs';

/** Where `npm run docs` writes the site, relative to the repository root. */
export const defaultOutDir = 'docs/site';

/** The API team's own pages in docs/: linked from CONTRIBUTING.md, not part of the merchants' site (nor of the package). */
export const maintainerPages = ['benchmarks'];

/** The site's getting-started page, made from the README's install and quickstart sections (scripts/lib/getting-started.mjs). */
export const firstPage = `${GETTING_STARTED}.html`;

const MARKER = '.built-by-npm-run-docs';
const execFileAsync = promisify(execFile);
// Note: Redoc's "API docs by Redocly" badge loads its logo from a CDN; the same wordmark as an inline SVG keeps the
// attribution and lets the page render without any request leaving the docs server.
const LOGO = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="56" height="14" viewBox="0 0 56 14">' +
    '<text x="0" y="11" font-family="sans-serif" font-size="11" font-weight="600" fill="#0044d4">Redocly</text></svg>',
)}`;

/** The guides the site builds: every docs/*.md but the API team's own pages. */
export function siteGuides() {
  return readdirSync(path.join(root, 'docs')).filter(
    (f) => f.endsWith('.md') && !maintainerPages.includes(path.basename(f, '.md')),
  );
}

/** Builds the whole site into `outDir`; returns the pages written: [{ file, kind }]. */
export async function buildDocs({ outDir = path.join(root, defaultOutDir) } = {}) {
  prepare(outDir);
  const stage = stageSources();
  const redoc = mkdtempSync(path.join(os.tmpdir(), 'merchant-payments-docs-redoc-'));
  let references;
  try {
    // Note: VitePress writes its temporary files beside its config, so each build runs in a staged copy of its own
    // (npm start and the browser test may build at the same time). Redoc builds meanwhile, in child processes, into
    // a folder of its own, as VitePress empties its output folder first.
    [references] = await Promise.all([buildReferences(redoc), build(stage, { outDir, mpa: false })]);
    cpSync(redoc, outDir, { recursive: true });
  } finally {
    rmSync(stage, { recursive: true, force: true });
    rmSync(redoc, { recursive: true, force: true });
  }
  writeFileSync(path.join(outDir, MARKER), 'Written by npm run docs; the whole folder is replaced on every build.\n');
  const guides = readdirSync(outDir).filter((f) => f.endsWith('.html') && !references.some((r) => r.file === f));
  return [...guides.map((file) => ({ file, kind: 'page' })), ...references];
}

// Clears a previous build; refuses to clear a non-empty folder that is not one.
function prepare(outDir) {
  if (existsSync(outDir) && readdirSync(outDir).length > 0) {
    if (!existsSync(path.join(outDir, MARKER))) {
      throw new Error(`${outDir} is not empty and holds no previous docs build; choose an empty or new folder.`);
    }
    rmSync(outDir, { recursive: true, force: true });
  }
  mkdirSync(outDir, { recursive: true });
}

/** A temporary folder with the site's config, public files, guides and the getting-started page made from the README. */
function stageSources() {
  const docs = path.join(root, 'docs');
  if (existsSync(path.join(docs, `${GETTING_STARTED}.md`)))
    throw new Error(`docs/${GETTING_STARTED}.md would be written over the page made from the README; rename the guide`);
  requireFile('docs/assumptions.md', 'run npm run assumptions first');
  const stage = mkdtempSync(path.join(os.tmpdir(), 'merchant-payments-docs-src-'));
  // Note: the staged config and VitePress's client code resolve their packages from the repository's node_modules.
  symlinkSync(path.join(root, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
  // Note: images/ holds the guides' screenshots, which the guides link relatively, so they show on GitHub too.
  for (const dir of ['.vitepress', 'public', 'images']) {
    cpSync(path.join(docs, dir), path.join(stage, dir), {
      recursive: true,
      filter: (src) => !/[/\\](cache|\.temp)$/.test(src),
    });
  }
  for (const file of siteGuides()) cpSync(path.join(docs, file), path.join(stage, file));
  const pkg = JSON.parse(readFileSync(path.join(root, 'packages/contract/package.json'), 'utf8'));
  const web = repositoryWebUrl(pkg);
  const markdown = gettingStartedMarkdown(readFileSync(path.join(root, 'README.md'), 'utf8'), (href) =>
    siteHref(href, web),
  );
  writeFileSync(path.join(stage, `${GETTING_STARTED}.md`), markdown);
  return stage;
}

// Note: one Redoc build at a time, beside VitePress's, as two cores are all there may be.
async function buildReferences(dir) {
  const pages = [];
  for (const [name, api] of Object.entries(apis)) pages.push(await buildReference(name, api, dir));
  return pages;
}

/** Writes the Redoc page of one API and its bundled spec (under openapi/) into `outDir`. */
async function buildReference(name, api, outDir) {
  requireFile(api.output, 'run npm run bundle first');
  const spec = path.join(root, api.output);
  const { info } = parse(readFileSync(spec, 'utf8'));
  const file = `${name}.html`;
  if (!referencePages.some((page) => page.file === file))
    throw new Error(`docs/.vitepress/sidebar.mjs lists no reference page ${file} for the API ${name} of redocly.yaml`);
  const target = path.join(outDir, file);
  const template = 'docs/.vitepress/redoc.hbs';
  requireFile(template);
  const args = ['build-docs', spec, '--inlineBundle', '--openapi.disableTelemetry=true', '--template', template];
  await execFileAsync(
    process.execPath,
    [binPath('@redocly/cli', 'redocly'), ...args, '--title', info.title, '--output', target],
    {
      cwd: root,
      env: quietEnv,
      maxBuffer: 64 * 1024 * 1024,
    },
  ).catch((error) => {
    throw new Error(`redocly build-docs ${name} failed:\n${error.stderr ?? error.message}`);
  });
  const html = readFileSync(target, 'utf8').replace(/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g, LOGO);
  writeFileSync(target, html);
  mkdirSync(path.join(outDir, 'openapi'), { recursive: true });
  cpSync(spec, path.join(outDir, 'openapi', path.basename(api.output)));
  return { file, kind: 'reference' };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const { values } = parseArgs({ options: { out: { type: 'string' } } });
    const outDir = path.resolve(values.out ?? path.join(root, defaultOutDir));
    const started = Date.now();
    Object.assign(process.env, quietEnv);
    const pages = await buildDocs({ outDir });
    for (const page of pages)
      console.log(`  ${page.kind.padEnd(9)} ${path.relative(process.cwd(), path.join(outDir, page.file))}`);
    console.log(`built ${pages.length} pages in ${Date.now() - started} ms`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
