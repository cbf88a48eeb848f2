// The site's sidebar, grouped by what a merchant's developer is doing. Each guide is `docs/<name>.md`; the getting-started
// page is made from the README (scripts/docs.mjs); the Redoc reference pages are static files built beside the site.

/** The Redoc pages: one per API in redocly.yaml, built by `redocly build-docs` into the site's folder. */
export const referencePages = [
  { text: 'Variant A', file: 'variant-a.html' },
  { text: 'Variant B', file: 'variant-b.html' },
  { text: 'Sandbox control', file: 'sandbox.html' },
  { text: 'Sandbox admin', file: 'admin.html' },
];

const page = (text, name) => ({ text, link: `/${name}.html` });

/** The sidebar's groups, in reading order. */
export const sidebar = [
  {
    text: 'Get started',
    items: [
      page('Getting started', 'getting-started'),
      page('The two variants', 'variants'),
      page('Authentication', 'authentication'),
    ],
  },
  {
    text: 'Integrate',
    items: [
      page('Idempotency', 'idempotency'),
      page('Errors', 'errors'),
      page('Pagination', 'pagination'),
      page('Webhooks', 'webhooks'),
      page('TypeScript errors', 'typescript-errors'),
      page('Other generators and Postman', 'generators'),
    ],
  },
  {
    text: 'Test',
    items: [
      page('The contract mock', 'mock'),
      page('The sandbox', 'sandbox-guide'),
      page('Sandbox values', 'sandbox-values'),
      page('Testing your integration', 'testing'),
    ],
  },
  {
    text: 'Operate',
    items: [
      page('Operating the sandbox', 'operations'),
      page('Hosting the sandbox', 'hosting'),
      page('The command line', 'cli'),
    ],
  },
  {
    text: 'Check a server',
    items: [page('The conformance kit', 'conformance'), page("The kit's checks", 'conformance-checks')],
  },
  {
    text: 'Reference',
    items: [
      // Note: `target` makes the link a full page load; VitePress's router would otherwise look for a page of its own.
      ...referencePages.map(({ text, file }) => ({ text, link: `/${file}`, target: '_self' })),
      page('Assumptions register', 'assumptions'),
    ],
  },
];
