// The docs site's getting-started page is made from the README when the site is built: its lead, install and
// quickstart sections as written (the README test's markers left out), with each link moved to where it leads from the
// site. And no page of the merchants' site shows the maintainers' notes. test/docs/site.test.ts opens the built pages.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { siteGuides } from '../../scripts/docs.mjs';
import { gettingStartedMarkdown, repositoryWebUrl, SECTIONS, siteHref } from '../../scripts/lib/getting-started.mjs';
import { root } from '../../scripts/lib/tools.mjs';

const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const web = repositoryWebUrl(pkg);
const page = gettingStartedMarkdown(readme);
const MAINTAINER_NOTES =
  /npm run regenerate|do not edit it by hand|npm run bench|npm start\b|readme-test|run by the test/i;

describe('the getting-started page', () => {
  it('holds the README\'s install and quickstart sections as written, under the title "Getting started"', () => {
    expect(page.startsWith('# Getting started\n\nThe merchant payments interface as an OpenAPI 3.1 contract')).toBe(
      true,
    );
    for (const title of SECTIONS) {
      const section = readme.split(/^(?=## )/m).find((part) => part.startsWith(`## ${title}\n`))!;
      expect(page).toContain(section.replace(/^<!-- readme-test:.*-->\n/gm, '').trimEnd());
    }
    expect(page).toContain('npm install ./merchant-payments-contract-*.tgz');
    expect(page).toContain('npx merchant-payments mock --variant a -- node quickstart-variant-a.mjs');
    expect(page).not.toMatch(MAINTAINER_NOTES);
    // The README's maintainer block (a clone's npm ci, npm start, npm test) is not part of it.
    expect(page).not.toContain('npm run test:all');
  });

  it('links a guide to its page, a file the site does not hold to the repository, and the rest as it is', () => {
    expect(siteHref('docs/typescript-errors.md', web)).toBe('typescript-errors.md');
    expect(siteHref('docs/cli.md#merchant-payments-mock', web)).toBe('cli.md#merchant-payments-mock');
    expect(siteHref('examples/', web)).toBe(`${web}/tree/main/examples/`);
    expect(siteHref('CHANGELOG.md', web)).toBe(`${web}/blob/main/CHANGELOG.md`);
    expect(siteHref('https://stoplight.io/open-source/prism', web)).toBe('https://stoplight.io/open-source/prism');
    const linked = gettingStartedMarkdown(readme, (href) => siteHref(href, web));
    expect(linked.startsWith('# Getting started\n')).toBe(true);
    expect(linked).toContain('](typescript-errors.md)');
    expect(linked).toContain(`](${web}/tree/main/examples/)`);
    expect(linked).not.toMatch(/\]\(docs\//);
    // Code blocks keep their text as written, links or not.
    expect(linked.match(/^```[\s\S]*?^```$/gm)).toEqual(page.match(/^```[\s\S]*?^```$/gm));
  });
});

describe("the merchants' site", () => {
  it.each(siteGuides())("shows no maintainers' note on the page of %s (HTML comments are not shown)", (file) => {
    const markdown = readFileSync(path.join(root, 'docs', file), 'utf8');
    expect(markdown.replace(/<!--[\s\S]*?-->/g, '')).not.toMatch(MAINTAINER_NOTES);
  });
});
