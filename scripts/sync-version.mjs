// Writes package.json's version into src/client/user-agent.ts (PACKAGE_VERSION), run by `npm run release:version`
// after `changeset version`; a test fails when the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './lib/tools.mjs';

const file = path.join(root, 'src/client/user-agent.ts');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const source = readFileSync(file, 'utf8');
const pattern = /export const PACKAGE_VERSION = '[^']*';/;
if (!pattern.test(source)) throw new Error(`${path.relative(root, file)} has no PACKAGE_VERSION line to update.`);
writeFileSync(file, source.replace(pattern, `export const PACKAGE_VERSION = '${version}';`));
console.log(`PACKAGE_VERSION = ${version}`);
