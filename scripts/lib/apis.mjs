// The APIs listed in redocly.yaml: { name: { root, output } }, read once; and the bundle of what both share.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { root } from './tools.mjs';

const config = parse(readFileSync(path.join(root, 'redocly.yaml'), 'utf8'));

/**
 * Map of API name to its root spec and bundled output, relative to the repository root.
 * @type {Record<string, { root: string, output: string }>}
 */
export const apis = config.apis;

/** The bundle of what both variants share: every component schema and webhook under openapi/ (scripts/bundle.mjs). */
export const sharedBundle = 'generated/openapi/shared.yaml';

/**
 * Every bundle in generated/openapi by name: each API's, and `shared`.
 * @type {Record<string, string>}
 */
export const bundles = { ...Object.fromEntries(Object.entries(apis).map(([name, api]) => [name, api.output])), shared: sharedBundle };
