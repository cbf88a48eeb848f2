// The README's and the guides' links, read in the repository: every relative one names a file here (and an #anchor a
// heading of it), and every link into the repository's web address (package.json `repository`) names a file that is
// in the repository, for what the package does not ship (CONTRIBUTING.md, the benchmarks). The packed tarball's copy is
// checked from an installed package by test/package/tarball.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { brokenLinks, linksOf } from '../package/links.js';

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  homepage: string;
  repository: { type: string; url: string };
  bugs: { url: string };
};
/** The repository's web address, as package.json's `repository` gives it. */
const web = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const files = [
  'README.md',
  ...['contract', 'sandbox', 'conformance', 'cli'].map((name) => `packages/${name}/README.md`),
  ...readdirSync(path.join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('package.json', () => {
  it('names the project: its repository, its home page (the docs site) and where to report a bug', () => {
    expect(pkg.repository).toEqual({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/.+\.git$/) });
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs.url).toBe(`${web}/issues`);
  });
});

describe.each(files)('%s', (file) => {
  it('has relative links that name files of the repository, and anchors that name headings', () => {
    expect(brokenLinks(path.join(root, file), root)).toEqual([]);
  });

  it('links into the repository only to files it holds', () => {
    for (const href of linksOf(readFileSync(path.join(root, file), 'utf8')).filter((h) => h.startsWith(`${web}/`))) {
      const inRepository = /^\/(?:blob|tree)\/main\/(.+)$/.exec(href.slice(web.length))?.[1];
      expect(inRepository, href).toBeDefined();
      expect(existsSync(path.join(root, inRepository!)), href).toBe(true);
    }
  });
});
