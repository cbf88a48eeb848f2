// The APIs listed in redocly.yaml: { name: { root, output } }, read once.
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
