// The docs site's "Getting started" page, made from the README when the site is built, so that the two never differ:
// the README's lead (what the package is), its "Install" and its "Quickstart" sections, as written, with the links
// moved to where they lead from the site (a guide's page, or the repository for a file the site does not hold).

/** The page's file name in the site. */
export const GETTING_STARTED = 'getting-started';

/** The README's sections the page is made of, by their `## ` heading. */
export const SECTIONS = ['Install', 'Quickstart'];

/** The repository's web address from package.json's `repository` (`git+https://host/owner/name.git`). */
export function repositoryWebUrl(pkg) {
  const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  if (!url) throw new Error('package.json has no repository, which the site links the files it does not hold to');
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
}

/**
 * Where a README link leads from the site: `docs/<guide>.md` to the guide (its `.md`, which the site makes `.html`),
 * another file of the repository to the repository's page of it, anything absolute or an anchor unchanged.
 */
export function siteHref(href, web) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return href;
  if (/^docs\/[^/]+\.md(#.*)?$/.test(href)) return href.slice('docs/'.length);
  return `${web}/${href.endsWith('/') ? 'tree' : 'blob'}/main/${href}`;
}

/** The `## ` section of `readme` headed `title`, up to the next `## ` heading (code blocks are never split). */
function section(readme, title) {
  const parts = readme.split(/^(?=## )/m);
  const found = parts.find((part) => part.startsWith(`## ${title}\n`));
  if (!found)
    throw new Error(`README.md has no "## ${title}" section, which the docs site's getting-started page is made from`);
  return found.trimEnd();
}

/** The README's lead: the paragraph after its title and the list that follows it. */
function lead(readme) {
  const intro = readme.split(/^(?=## )/m)[0].replace(/^# .*\n+/, '');
  const [paragraph, list] = intro.split(/\n\n/);
  if (!paragraph || !list?.startsWith('- '))
    throw new Error("README.md's lead is not a paragraph and a list, which the getting-started page starts with");
  return `${paragraph}\n\n${list}`;
}

/**
 * The getting-started page's Markdown, from the README's text: its lead, then its install and quickstart sections, each
 * link's target passed through `href` (outside code blocks).
 */
export function gettingStartedMarkdown(readme, href = (link) => link) {
  const body = [lead(readme), ...SECTIONS.map((title) => section(readme, title))].join('\n\n');
  // Note: the README test's markers say how to run a block; on the site they are no text for anyone.
  const text = body.replace(/^<!-- readme-test:.*-->\n/gm, '');
  const linked = text
    .split(/(^```[\s\S]*?^```$)/m)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/\]\(([^()\s]+)\)/g, (_, link) => `](${href(link)})`)))
    .join('');
  return `# Getting started\n\n${linked}\n`;
}
