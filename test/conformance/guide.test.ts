// docs/conformance-checks.md is what the kit's registry of checks renders now, and names every check a stage can record.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderGuide, target } from '../../scripts/conformance-guide.mjs';
import { root } from '../../scripts/lib/tools.mjs';
import { CHECKS } from '../../packages/conformance/src/registry.js';

const committed = readFileSync(path.join(root, target), 'utf8');

describe('docs/conformance-checks.md', () => {
  it('is what the rule tables render now (run npm run regenerate after changing a check)', async () => {
    expect(committed).toBe(await renderGuide());
  });

  it.each(Object.entries(CHECKS).map(([name, { rule }]) => [name, rule]))(
    'names the check %s with its rule',
    (name, rule) => {
      expect(committed).toContain(`| \`${name}\` | ${rule.replaceAll('|', '\\|')} |`);
    },
  );

  it('is linked from the guide', () => {
    expect(readFileSync(path.join(root, 'docs/conformance.md'), 'utf8')).toContain('(conformance-checks.md)');
  });
});
