// The docs site's own pages (index and guides): Markdown to HTML, and one plain layout without scripts.
import { Marked } from 'marked';

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** A heading's anchor id, GitHub style: lower case, punctuation dropped, spaces to hyphens. */
export const slug = (text) =>
  String(text)
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');

const marked = new Marked({
  gfm: true,
  renderer: {
    heading({ tokens, depth, text }) {
      return `<h${depth} id="${escapeHtml(slug(text))}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * Parses a guide: its title (the first `# ` heading), its summary (the first paragraph after it) and its HTML. `href`
 * says where a link leads from the site (default: where it leads from docs/); a relative link to a `.md` then leads to
 * its page.
 */
export function renderGuide(markdown, file, { href = (link) => link } = {}) {
  const tokens = marked.lexer(markdown);
  const heading = tokens.find((t) => t.type === 'heading' && t.depth === 1);
  if (!heading) throw new Error(`${file} has no "# " title; every guide starts with one.`);
  const summary = tokens.slice(tokens.indexOf(heading) + 1).find((t) => t.type === 'paragraph');
  marked.walkTokens(tokens, (token) => {
    if (token.type !== 'link') return;
    token.href = href(token.href);
    // Note: guides link to each other as `.md` so the links also work when read in the repository.
    if (!ABSOLUTE.test(token.href)) token.href = token.href.replace(/\.md(?=#|$)/, '.html');
  });
  return {
    title: heading.text.replace(/`/g, ''),
    summary: summary ? firstSentence(summary.text) : '',
    html: marked.parser(tokens),
  };
}

function firstSentence(text) {
  const plain = text
    .replace(/\s+/g, ' ')
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return /^.*?\.(?=\s|$)/.exec(plain)?.[0] ?? plain;
}

const STYLE = `
  :root { color-scheme: light; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --accent: #0b5cad; --code: #f3f5f7; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); }
  header { border-bottom: 1px solid var(--line); padding: 0.75rem 1.5rem; display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; align-items: baseline; }
  header a { color: var(--accent); text-decoration: none; }
  header a[aria-current] { color: var(--fg); font-weight: 600; }
  header .home { font-weight: 700; color: var(--fg); margin-right: 0.5rem; }
  main { max-width: 60rem; margin: 0 auto; padding: 1.5rem; }
  h1, h2, h3 { line-height: 1.25; }
  a { color: var(--accent); }
  code { background: var(--code); padding: 0.1em 0.3em; border-radius: 4px; font-size: 0.9em; }
  pre { background: var(--code); padding: 1rem; overflow-x: auto; border-radius: 6px; line-height: 1.45; }
  pre code { background: none; padding: 0; }
  table { border-collapse: collapse; display: block; overflow-x: auto; margin: 1rem 0; }
  th, td { border: 1px solid var(--line); padding: 0.35rem 0.6rem; text-align: left; vertical-align: top; }
  th { background: var(--code); }
  .cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); gap: 1rem; padding: 0; list-style: none; }
  .cards li { border: 1px solid var(--line); border-radius: 8px; padding: 0.75rem 1rem; }
  .cards a { font-weight: 600; }
  .cards p { margin: 0.35rem 0 0; color: var(--muted); font-size: 0.95em; }
  footer { color: var(--muted); font-size: 0.9em; border-top: 1px solid var(--line); padding: 1rem 1.5rem; }
`;

/** A whole HTML page: the shared header (`nav`: [{ href, label }]), the page's own content and `footer`, no scripts. */
export function layout({ title, siteTitle, nav, current, content, footer }) {
  const links = nav
    .map(
      ({ href, label }) =>
        `<a href="${escapeHtml(href)}"${href === current ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a>`,
    )
    .join('\n    ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title === siteTitle ? title : `${title} · ${siteTitle}`)}</title>
  <link rel="icon" href="favicon.svg" type="image/svg+xml">
  <style>${STYLE}</style>
</head>
<body>
  <header>
    <a class="home" href="index.html">${escapeHtml(siteTitle)}</a>
    ${links}
  </header>
  <main>
${content}
  </main>
  <footer>${footer}</footer>
</body>
</html>
`;
}
