// The breaking-change check: bundled specs against the last release, allowed only with a major bump.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { baselineDir, checkBreaking } from '../../scripts/check-breaking.mjs';
import { bumpVersion, classifyChanges, isMajorBump, pendingBump } from '../../scripts/lib/breaking.mjs';
import { apis } from '../../scripts/lib/apis.mjs';
import { root } from '../../scripts/lib/tools.mjs';

const fixtures = path.join(root, 'test/versioning/fixtures');
const baseline = path.join(fixtures, 'baseline');
const NAME = '@merchant-payments/contract';
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A package.json at `version` and a changeset folder holding one changeset per given bump. */
function project(version: string, bumps: string[] = []): { packageFile: string; changesets: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'breaking-'));
  dirs.push(dir);
  const changesets = path.join(dir, '.changeset');
  mkdirSync(changesets);
  writeFileSync(path.join(changesets, 'README.md'), '# not a changeset\n');
  bumps.forEach((bump, i) =>
    writeFileSync(path.join(changesets, `change-${i}.md`), `---\n"${NAME}": ${bump}\n---\n\nA change.\n`),
  );
  const packageFile = path.join(dir, 'package.json');
  writeFileSync(packageFile, JSON.stringify({ name: NAME, version }));
  return { packageFile, changesets };
}

const check = (fixture: string, version: string, bumps: string[] = []) =>
  checkBreaking({ baseline, specs: path.join(fixtures, fixture), ...project(version, bumps) });

describe('classifyChanges', () => {
  const before = parse(readFileSync(path.join(baseline, 'openapi/payments.yaml'), 'utf8'));
  const after = (fixture: string) => parse(readFileSync(path.join(fixtures, fixture, 'payments.yaml'), 'utf8'));
  const breaking = (fixture: string) => classifyChanges(before, after(fixture)).filter((c) => c.type === 'breaking');

  it('finds no breaking change in the compatible fixture, but does see its changes', () => {
    const changes = classifyChanges(before, after('compatible'));
    expect(breaking('compatible')).toEqual([]);
    expect(changes.filter((c) => c.type === 'non-breaking').map((c) => c.path)).toEqual(
      expect.arrayContaining(['paths//balance/get', 'paths//payments/get/parameters/1']),
    );
    // Extensions such as x-provenance are documentation.
    expect(changes.filter((c) => c.path.endsWith('x-provenance')).every((c) => c.type === 'annotation')).toBe(true);
  });

  it('reports every breaking change of the breaking fixture, in operations, nested responses and the webhook', () => {
    const paths = breaking('breaking').map((c) => c.path);
    expect(paths).toContain('paths//payments/{id}/refund/post');
    expect(paths).toContain(
      'paths//payments/get/responses/200/content/application/json/schema/properties/data/items/properties/requested/properties/currency',
    );
    expect(paths).toContain('webhooks/onStatusChange/post/parameters/1');
    expect(paths).toContain(
      'webhooks/onStatusChange/post/requestBody/content/application/json/schema/properties/data/properties/requested/properties/currency',
    );
  });

  it('judges a webhook as its receiver does: an added field is safe, a removed header is not', () => {
    const spec = parse(readFileSync(path.join(root, 'packages/contract/generated/openapi/variant-b.yaml'), 'utf8'));
    const added = structuredClone(spec);
    added.components.schemas.WebhookEventBase.properties.trace_id = { type: 'string' };
    expect(classifyChanges(spec, added).filter((c) => c.type === 'breaking')).toEqual([]);
    const removed = structuredClone(spec);
    removed.webhooks.onStatusChange.post.parameters = removed.webhooks.onStatusChange.post.parameters.slice(0, -1);
    expect(
      classifyChanges(spec, removed)
        .filter((c) => c.type === 'breaking')
        .map((c) => c.path),
    ).toEqual([expect.stringMatching(/^webhooks\/onStatusChange\/post\/parameters\//)]);
  });
});

describe('classifyChanges on what changes no request or response', () => {
  const spec = parse(readFileSync(path.join(root, 'packages/contract/generated/openapi/variant-b.yaml'), 'utf8'));
  const types = (after: unknown) => [...new Set(classifyChanges(spec, after).map((c) => c.type))];

  it('calls changed, added and moved examples annotations', () => {
    const after = structuredClone(spec);
    after.components.examples.PendingPayment.value.data.status = 'created';
    after.paths['/merchant/v1/payments/{paymentId}'].get.responses['200'].content[
      'application/json'
    ].examples.payment_extra = { value: {} };
    after.components.parameters.PaymentId.example = 'pay_other';
    expect(types(after)).toEqual(['annotation']);
  });

  it('calls a pattern rewritten with other escapes for the same characters an annotation, and any other pattern change breaking', () => {
    const rewritten = structuredClone(spec);
    const shortText = rewritten.components.schemas.ShortText;
    shortText.pattern = shortText.pattern.replace('\\x00', '\\u0000').replace('\\x7F', '\\u007f');
    expect(shortText.pattern).toContain('\\u0000');
    expect(types(rewritten)).toEqual(['annotation']);
    const changed = structuredClone(spec);
    changed.components.schemas.ShortText.pattern = changed.components.schemas.ShortText.pattern.replace(
      '\\x7F',
      '\\x7E',
    );
    expect(types(changed)).toContain('breaking');
  });
});

describe('checkBreaking', () => {
  it('passes the compatible fixture without any bump', () => {
    const result = check('compatible', '0.3.0');
    expect(result).toMatchObject({ previous: '0.3.0', next: '0.3.0', breaking: 0, ok: true });
  });

  it('fails the breaking fixture without a bump, or with a patch changeset', () => {
    expect(check('breaking', '0.3.0')).toMatchObject({ next: '0.3.0', ok: false });
    expect(check('breaking', '0.3.0', ['patch'])).toMatchObject({ next: '0.3.1', ok: false });
    expect(check('breaking', '0.3.0').breaking).toBeGreaterThanOrEqual(4);
  });

  it('passes the breaking fixture with a major bump, from a changeset or from package.json', () => {
    expect(check('breaking', '0.3.0', ['patch', 'minor'])).toMatchObject({ next: '0.4.0', ok: true });
    expect(check('breaking', '0.3.0', ['major'])).toMatchObject({ next: '1.0.0', ok: true });
    expect(check('breaking', '1.0.0')).toMatchObject({ next: '1.0.0', ok: true });
  });

  it('refuses a package.json behind the last release', () => {
    expect(() => check('compatible', '0.2.9')).toThrow(/behind the last release 0\.3\.0/);
  });

  it('exits non-zero from the command line on the breaking fixture, naming the changes', () => {
    const { packageFile, changesets } = project('0.3.0');
    const args = ['--baseline', baseline, '--changesets', changesets, '--package', packageFile];
    const run = (fixture: string) =>
      spawnSync(process.execPath, ['scripts/check-breaking.mjs', ...args, '--specs', path.join(fixtures, fixture)], {
        cwd: root,
        encoding: 'utf8',
      });
    const broken = run('breaking');
    expect(broken.status).toBe(1);
    expect(broken.stdout).toContain('breaking: [Removed] operation POST /payments/{id}/refund');
    expect(broken.stderr).toContain('need a major bump');
    expect(run('compatible').status).toBe(0);
  });
});

describe('the release baseline', () => {
  it('holds the bundled specs of every API it was recorded with, and the current specs pass the check against it', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, baselineDir, 'manifest.json'), 'utf8'));
    const current = Object.values(apis).map((api) => path.basename(api.output));
    expect(current).toEqual(expect.arrayContaining(manifest.specs));
    const result = checkBreaking();
    expect(
      result.ok,
      JSON.stringify(
        result.results.map((r: { breaking: unknown[] }) => r.breaking),
        null,
        2,
      ),
    ).toBe(true);
    // Note: an API added since the last release is reported as new, and recorded with the next one.
    const added = result.results.filter((r: { added?: boolean }) => r.added).map((r: { file: string }) => r.file);
    expect([...manifest.specs, ...added].sort()).toEqual([...current].sort());
  });

  it('is replaced by --record only after the version moved past it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'record-'));
    dirs.push(dir);
    const release = path.join(dir, 'release');
    cpSync(baseline, release, { recursive: true });
    const record = (version: string) => {
      const { packageFile, changesets } = project(version);
      const args = [
        '--record',
        '--baseline',
        release,
        '--specs',
        path.join(fixtures, 'compatible'),
        '--package',
        packageFile,
        '--changesets',
        changesets,
      ];
      return spawnSync(process.execPath, ['scripts/check-breaking.mjs', ...args], { cwd: root, encoding: 'utf8' });
    };
    const recorded = () => readFileSync(path.join(release, 'openapi/payments.yaml'), 'utf8');

    const same = record('0.3.0');
    expect(same.status).toBe(1);
    expect(same.stderr).toContain('not past the recorded 0.3.0');
    expect(recorded()).toBe(readFileSync(path.join(baseline, 'openapi/payments.yaml'), 'utf8'));

    expect(record('0.3.1').status).toBe(0);
    expect(recorded()).toBe(readFileSync(path.join(fixtures, 'compatible/payments.yaml'), 'utf8'));
    expect(JSON.parse(readFileSync(path.join(release, 'manifest.json'), 'utf8')).version).toBe('0.3.1');
  });

  it('reports each API the baseline lacks as new, and --record adds it to the baseline', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'record-new-'));
    dirs.push(dir);
    const release = path.join(dir, 'release');
    const specs = path.join(dir, 'specs');
    cpSync(baseline, release, { recursive: true });
    cpSync(path.join(fixtures, 'compatible'), specs, { recursive: true });
    // Note: the sandbox's control and admin APIs, both added after 0.1.0; each is all additions.
    const outputs = [apis.sandbox!.output, apis.admin!.output];
    const added = outputs.map((output) => path.basename(output));
    for (const output of outputs)
      writeFileSync(path.join(specs, path.basename(output)), readFileSync(path.join(root, output)));

    const result = checkBreaking({ baseline: release, specs, ...project('0.3.0') });
    expect(result.results.map((r: { file: string; added?: boolean }) => [r.file, r.added ?? false])).toEqual([
      ['payments.yaml', false],
      ...added.map((file) => [file, true]),
    ]);
    expect(result.breaking).toBe(0);
    expect(result.ok).toBe(true);

    const { packageFile, changesets } = project('0.3.1');
    const args = [
      '--record',
      '--baseline',
      release,
      '--specs',
      specs,
      '--package',
      packageFile,
      '--changesets',
      changesets,
    ];
    const run = spawnSync(process.execPath, ['scripts/check-breaking.mjs', ...args], { cwd: root, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    for (const file of added) expect(run.stdout).toContain(`${file}: new since the last release`);
    expect(JSON.parse(readFileSync(path.join(release, 'manifest.json'), 'utf8')).specs).toEqual([
      'payments.yaml',
      ...added,
    ]);
    for (const file of added)
      expect(readFileSync(path.join(release, 'openapi', file), 'utf8')).toBe(
        readFileSync(path.join(specs, file), 'utf8'),
      );
  });
});

describe('versions', () => {
  it('treats a bump as major when it leaves the caret range of the last release', () => {
    expect(isMajorBump('1.2.3', '2.0.0')).toBe(true);
    expect(isMajorBump('1.2.3', '1.3.0')).toBe(false);
    expect(isMajorBump('0.3.0', '0.4.0')).toBe(true);
    expect(isMajorBump('0.3.0', '0.3.1')).toBe(false);
    expect(isMajorBump('0.0.3', '0.0.4')).toBe(true);
    expect(isMajorBump('0.3.0', '0.3.0')).toBe(false);
    expect(bumpVersion('0.3.7', 'minor')).toBe('0.4.0');
    expect(bumpVersion('0.3.7', 'none')).toBe('0.3.7');
  });

  it('reads the largest bump of this package from changeset front matter', () => {
    const changeset = (lines: string) => `---\n${lines}\n---\n\nText.\n`;
    expect(pendingBump([changeset(`"${NAME}": patch`), changeset(`'${NAME}': minor`)], NAME)).toBe('minor');
    expect(pendingBump([changeset(`"other-package": major`)], NAME)).toBe('none');
    expect(pendingBump([], NAME)).toBe('none');
  });
});
