// The links of Markdown files as a reader follows them where the files lie: a relative link must name a file or folder
// under the root given (the installed package, or the repository), and an `#anchor` a heading of the Markdown file it
// points at, by the ids GitHub and the docs site give headings (github-slugger, docs/.vitepress/config.mjs).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Marked } from 'marked';
import { slug } from 'github-slugger';

const marked = new Marked({ gfm: true });
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/** Every link and image target of `markdown`, in order (links in code and in HTML comments are not links). */
export function linksOf(markdown: string): string[] {
  const hrefs: string[] = [];
  // Note: walkTokens returns what its callback returns, promises only for an async one; this callback is synchronous.
  void marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') hrefs.push(token.href);
  });
  return hrefs;
}

/** The anchors of a Markdown file's headings. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  void marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'heading') anchors.add(slug(token.text));
  });
  return anchors;
}

/** The relative links of `file`, each resolved: its target path and anchor. */
export function relativeLinks(file: string): { href: string; target: string; anchor: string | undefined }[] {
  return linksOf(readFileSync(file, 'utf8'))
    .filter((href) => !ABSOLUTE.test(href))
    .map((href) => {
      const [target = '', anchor] = href.split('#');
      return {
        href,
        target: target === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(target)),
        anchor,
      };
    });
}

/** Each relative link of `file` that leaves `root`, names nothing there, or names an anchor its target lacks, with why. */
export function brokenLinks(file: string, root: string): string[] {
  const name = path.relative(root, file);
  return relativeLinks(file).flatMap(({ href, target, anchor }) => {
    const inside = path.relative(root, target);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return [`${name} -> ${href}: outside ${root}`];
    if (!existsSync(target)) return [`${name} -> ${href}: no such file`];
    if (anchor === undefined) return [];
    if (!statSync(target).isFile() || !target.endsWith('.md'))
      return [`${name} -> ${href}: an anchor into a file that is not Markdown`];
    return anchorsOf(readFileSync(target, 'utf8')).has(anchor)
      ? []
      : [`${name} -> ${href}: no heading #${anchor} in ${inside}`];
  });
}
