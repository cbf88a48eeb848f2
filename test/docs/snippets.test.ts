// The guides' TypeScript examples compile against the package's real API (its sources, under the package's name).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath, root } from '../../scripts/lib/tools.mjs';
import { snippetCompilerOptions } from './snippet-options.js';

/** Every ```ts block of every guide, named after its guide and position. */
export function guideSnippets(): { name: string; code: string }[] {
  const docs = path.join(root, 'docs');
  return readdirSync(docs)
    .filter((file) => file.endsWith('.md'))
    .flatMap((file) =>
      [...readFileSync(path.join(docs, file), 'utf8').matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match, i) => ({
        name: `${file.replace(/\.md$/, '')}-${i + 1}`,
        code: match[1] ?? '',
      })),
    );
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'guide-snippets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the guides', () => {
  it('have TypeScript examples for the clients and the webhook verifier', () => {
    const all = guideSnippets()
      .map((s) => s.code)
      .join('\n');
    for (const api of [
      'createVariantAClient',
      'createVariantBClient',
      'paginate',
      'verifyWebhook',
      'createNodeWebhookHandler',
      'createFetchWebhookHandler',
      'signWebhook',
    ]) {
      expect(all, api).toContain(api);
    }
  });

  it('have examples that type-check against the package', () => {
    const snippets = guideSnippets();
    for (const { name, code } of snippets) writeFileSync(path.join(dir, `${name}.mts`), code);
    const tsconfig = {
      compilerOptions: snippetCompilerOptions,
      files: snippets.map(({ name }) => `${name}.mts`),
    };
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const tsc = spawnSync(process.execPath, [binPath('typescript', 'tsc'), '-p', dir], { encoding: 'utf8' });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  });
});
