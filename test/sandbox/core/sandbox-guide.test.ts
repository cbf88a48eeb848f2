import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderGuide, target } from '../../../scripts/sandbox-guide.mjs';
import { root } from '../../../scripts/lib/tools.mjs';
import { MAGIC_VALUES, RETRY_SCHEDULE_SECONDS } from '../../../packages/sandbox/src/core/index.js';

const committed = readFileSync(path.join(root, target), 'utf8');

describe('docs/sandbox-values.md', () => {
  it('is what the sandbox core renders now (run npm run regenerate after changing the catalogue)', async () => {
    expect(committed).toBe(await renderGuide());
  });

  it.each(MAGIC_VALUES.map((m) => [m.kind, m.field, m.value, m.outcome] as const))(
    'lists the %s magic value %s = %s (%s)',
    (_kind, field, value, outcome) => {
      expect(committed).toContain(`| \`${field}\` | \`${value}\` | \`${outcome}\` |`);
    },
  );

  it('gives the last retry of a webhook delivery in minutes after the event', () => {
    expect(committed).toContain(`${RETRY_SCHEDULE_SECONDS.at(-1)! / 60} minutes`);
  });
});
