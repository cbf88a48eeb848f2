// VitePress builds the merchants' site from docs/*.md (scripts/docs.mjs stages them with the getting-started page).
// Note: no relative imports out of this folder, as scripts/docs.mjs builds from a staged copy of it (packages resolve
// from the repository's node_modules).
import { slug } from 'github-slugger';
import { sidebar } from './sidebar.mjs';

/** The site's configuration: default theme, a sidebar by task, local search, anchors as GitHub makes them. */
export default {
  lang: 'en',
  title: 'Merchant payments API',
  description: 'The merchant payments contract, its typed clients, mock, sandbox and conformance kit.',
  head: [['link', { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]],
  // Note: pages keep their `.html` names, as the static servers and the Redoc pages' links expect.
  cleanUrls: false,
  // Note: heading anchors as GitHub makes them, so that a guide's #anchor link works in the repository and on the site.
  markdown: { anchor: { slugify: slug } },
  // The Redoc pages and bundled specs are written into the output after VitePress builds.
  ignoreDeadLinks: [/^\/?(variant-a|variant-b|sandbox|admin)\.html/, /^\/?openapi\//],
  themeConfig: {
    sidebar,
    search: { provider: 'local' },
    outline: { level: [2, 3] },
    nav: [
      { text: 'Guides', link: '/getting-started.html' },
      { text: 'Reference', link: '/variant-a.html', target: '_self' },
    ],
  },
};
