// The APIs listed in redocly.yaml: { name: { root, output } }, read once; which of them are the interface's variants;
// and the bundle of what both variants share.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { root } from './tools.mjs';

const config = parse(readFileSync(path.join(root, 'redocly.yaml'), 'utf8'));

/**
 * Map of API name to its root spec and bundled output, relative to the repository root: both variants and the
 * sandbox's control API.
 * @type {Record<string, { root: string, output: string, 'x-variant'?: string, 'x-spectral-ruleset'?: string }>}
 */
export const apis = config.apis;

/**
 * Names of the APIs that are layouts of the merchant payments interface (`x-variant` in redocly.yaml). What holds
 * across the variants (the same webhooks and schemas, the assumptions register) is checked on these only: the
 * sandbox's control API is the project's own, not part of the interface.
 * @type {string[]}
 */
export const variants = Object.keys(apis).filter((name) => apis[name]['x-variant']);

/** The bundle of what both variants share: every component schema and webhook under packages/contract/openapi/ (scripts/bundle.mjs). */
export const sharedBundle = 'packages/contract/generated/openapi/shared.yaml';

/**
 * Every bundle in packages/contract/generated/openapi by name: each API's, and `shared`.
 * @type {Record<string, string>}
 */
export const bundles = {
  ...Object.fromEntries(Object.entries(apis).map(([name, api]) => [name, api.output])),
  shared: sharedBundle,
};
