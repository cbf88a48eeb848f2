import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderRegister, target } from '../../scripts/assumptions.mjs';
import { bundle, bundleShared } from '../../scripts/bundle.mjs';
import { renderTypes, typesPath } from '../../scripts/generate.mjs';
import { renderWebhookValidators, validatorsDir } from '../../scripts/generate-webhook-validators.mjs';
import { operationsDir, renderOperationValidators } from '../../scripts/generate-operation-validators.mjs';
import { postmanDir, renderPostman } from '../../scripts/generate-postman.mjs';
import { apis, bundles, sharedBundle, variants } from '../../scripts/lib/apis.mjs';
import { root } from '../../scripts/lib/tools.mjs';

const read = (file: string) => readFileSync(file, 'utf8');

describe('generated files', () => {
  let dir: string;
  const fresh = (name: string) => path.join(dir, path.basename(bundles[name]!));
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'contract-drift-'));
    bundle(Object.keys(apis), dir);
    bundleShared(dir);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(Object.keys(bundles))('bundling %s again reproduces the committed bundle', (name) => {
    expect(read(path.join(root, bundles[name]!)), `${bundles[name]} is stale: run npm run bundle and commit it`).toBe(
      read(fresh(name)),
    );
  });

  it.each(Object.keys(bundles))('generating the %s types again reproduces the committed types', async (name) => {
    const types = await renderTypes(fresh(name));
    const committed = read(path.join(root, typesPath(name)));
    // Note: the header names the input file, which differs only in its folder.
    const body = (text: string) => text.slice(text.indexOf('\n'));
    expect(body(committed), `${typesPath(name)} is stale: run npm run generate and commit it`).toBe(body(types));
  });

  it('regenerating the assumptions register reproduces docs/assumptions.md', async () => {
    const committed = read(path.join(root, target));
    expect(committed, `${target} is stale: run npm run assumptions and commit it`).toBe(
      (await renderRegister(dir)).markdown,
    );
  });

  it('generating the webhook validators again reproduces generated/validators, and nothing else is there', async () => {
    const files = await renderWebhookValidators(fresh('shared'), sharedBundle);
    for (const [name, content] of Object.entries(files)) {
      const file = path.join(validatorsDir, name);
      expect(read(path.join(root, file)), `${file} is stale: run npm run regenerate and commit it`).toBe(content);
    }
    expect(readdirSync(path.join(root, validatorsDir)).sort()).toEqual(Object.keys(files).sort());
  });

  it('generating the operation validators again reproduces generated/operations, and nothing else is there', async () => {
    const freshBundles = Object.fromEntries(Object.keys(bundles).map((name) => [name, fresh(name)]));
    const files = await renderOperationValidators(freshBundles, bundles);
    for (const [name, content] of Object.entries(files)) {
      const file = path.join(operationsDir, name);
      expect(read(path.join(root, file)), `${file} is stale: run npm run regenerate and commit it`).toBe(content);
    }
    expect(readdirSync(path.join(root, operationsDir)).sort()).toEqual(Object.keys(files).sort());
  });

  it('converting the variants again reproduces generated/postman, and nothing else is there', async () => {
    const files = await renderPostman(Object.fromEntries(variants.map((name) => [name, fresh(name)])));
    for (const [file, content] of Object.entries(files)) {
      expect(read(path.join(root, file)), `${file} is stale: run npm run regenerate and commit it`).toBe(content);
    }
    expect(readdirSync(path.join(root, postmanDir)).sort()).toEqual(
      Object.keys(files)
        .map((f) => path.basename(f))
        .sort(),
    );
  });

  // Note: the shared types and the webhook validators are built from the shared bundle alone; this is what makes
  // them right for every variant.
  it.each(variants)('%s has the webhooks of the shared bundle, and each of its schemas is the shared one', (name) => {
    const shared = parse(read(fresh('shared')));
    const api = parse(read(fresh(name)));
    expect(api.webhooks).toEqual(shared.webhooks);
    for (const [kind, components] of Object.entries(api.components as Record<string, object>)) {
      for (const [component, value] of Object.entries(components)) {
        if (kind === 'schemas' || shared.components[kind]?.[component])
          expect(value, `${kind} ${component}`).toEqual(shared.components[kind]?.[component]);
      }
    }
  });

  // Note: the control and admin APIs reuse shared components (Problem, Timestamp, the webhook bodies) by $ref; a copy
  // would drift.
  it.each([
    ['sandbox control', 'sandbox', ['Problem', 'Timestamp', 'WebhookEvent', 'Pagination']],
    ['sandbox admin', 'admin', ['Problem', 'ProblemFieldError', 'Timestamp']],
  ])('the %s API holds every shared schema it uses exactly as the shared bundle has it', (_label, name, expected) => {
    const shared = parse(read(fresh('shared'))).components.schemas;
    const schemas = Object.entries(parse(read(fresh(name))).components.schemas as Record<string, object>);
    const reused = schemas.filter(([schema]) => schema in shared);
    expect(reused.map(([schema]) => schema)).toEqual(expect.arrayContaining(expected));
    for (const [schema, value] of reused) expect(value, schema).toEqual(shared[schema]);
  });

  it('lists both variants, and only them, as variants', () => {
    expect(variants).toEqual(['variant-a', 'variant-b']);
    expect(Object.keys(apis)).toEqual([...variants, 'sandbox', 'admin']);
  });

  it('packages/contract/generated/openapi holds nothing but the bundles', () => {
    const expected = Object.values(bundles)
      .map((file) => path.basename(file))
      .sort();
    expect(readdirSync(path.join(root, 'packages/contract/generated/openapi')).sort()).toEqual(expected);
  });

  it('packages/contract/generated/types holds nothing but the types of the bundles', () => {
    const expected = Object.keys(bundles)
      .map((name) => path.basename(typesPath(name)))
      .sort();
    expect(readdirSync(path.join(root, 'packages/contract/generated/types')).sort()).toEqual(expected);
  });
});
