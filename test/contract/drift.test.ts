import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderRegister, target } from '../../scripts/assumptions.mjs';
import { bundle } from '../../scripts/bundle.mjs';
import { renderTypes, typesPath } from '../../scripts/generate.mjs';
import { renderWebhookValidators, validatorsApi, validatorsDir } from '../../scripts/generate-webhook-validators.mjs';
import { apis } from '../../scripts/lib/apis.mjs';
import { root } from '../../scripts/lib/tools.mjs';

const read = (file: string) => readFileSync(file, 'utf8');

describe('generated files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'contract-drift-'));
    bundle(Object.keys(apis), dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(Object.entries(apis))('bundling %s again reproduces the committed bundle', (_name, api) => {
    const fresh = read(path.join(dir, path.basename(api.output)));
    const committed = read(path.join(root, api.output));
    expect(committed, `${api.output} is stale: run npm run bundle and commit it`).toBe(fresh);
  });

  it.each(Object.keys(apis))('generating the %s types again reproduces the committed types', async (name) => {
    const fresh = await renderTypes(path.join(dir, path.basename(apis[name]!.output)));
    const committed = read(path.join(root, typesPath(name)));
    // Note: the header names the input file, which differs only in its folder.
    const body = (text: string) => text.slice(text.indexOf('\n'));
    expect(body(committed), `${typesPath(name)} is stale: run npm run generate and commit it`).toBe(body(fresh));
  });

  it('regenerating the assumptions register reproduces docs/assumptions.md', async () => {
    const committed = read(path.join(root, target));
    expect(committed, `${target} is stale: run npm run assumptions and commit it`).toBe((await renderRegister(dir)).markdown);
  });

  it('generating the webhook validators again reproduces generated/validators, and nothing else is there', () => {
    const { output } = apis[validatorsApi]!;
    const fresh = renderWebhookValidators(path.join(dir, path.basename(output)), output);
    for (const [name, content] of Object.entries(fresh)) {
      const file = path.join(validatorsDir, name);
      expect(read(path.join(root, file)), `${file} is stale: run npm run regenerate and commit it`).toBe(content);
    }
    expect(readdirSync(path.join(root, validatorsDir)).sort()).toEqual(Object.keys(fresh).sort());
  });

  it('every listed API yields the same webhook validators', () => {
    const render = (name: string) => renderWebhookValidators(path.join(dir, path.basename(apis[name]!.output)), 'bundle');
    const expected = render(validatorsApi);
    for (const name of Object.keys(apis)) expect(render(name), `the webhooks of ${name} differ from ${validatorsApi}`).toEqual(expected);
  });

  it('generated/openapi holds nothing but the bundles of the listed APIs', () => {
    const expected = Object.values(apis).map((api) => path.basename(api.output)).sort();
    const present = readdirSync(path.join(root, 'generated/openapi')).sort();
    expect(present).toEqual(expected);
  });

  it('generated/types holds nothing but the types of the listed APIs', () => {
    const expected = Object.keys(apis).map((name) => path.basename(typesPath(name))).sort();
    const present = readdirSync(path.join(root, 'generated/types')).sort();
    expect(present).toEqual(expected);
  });
});
