// Compares the bundled specs with those of the last release (release/) and fails on a breaking change unless the
// pending version is a major bump of that release (in 0.x, a minor bump: npm's ^ treats it as major).
//   node scripts/check-breaking.mjs [--baseline <dir>] [--specs <dir>] [--changesets <dir>] [--package <file>]
//   node scripts/check-breaking.mjs --record   after `changeset version`: the current specs become the baseline
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { apis } from './lib/apis.mjs';
import {
  bumpVersion,
  classifyChanges,
  compareVersions,
  isMajorBump,
  parseVersion,
  pendingBump,
} from './lib/breaking.mjs';
import { root } from './lib/tools.mjs';

/** Where the last release's bundled specs and its manifest are kept, relative to the repository root. */
export const baselineDir = 'release';

/** Compares every spec of the baseline with its current version; returns what was found and whether it may pass. */
export function checkBreaking({
  baseline = path.join(root, baselineDir),
  specs = path.join(root, 'packages/contract/generated/openapi'),
  changesets = path.join(root, '.changeset'),
  packageFile = path.join(root, 'packages/contract/package.json'),
} = {}) {
  const manifest = readManifest(baseline);
  const pkg = JSON.parse(readFileSync(packageFile, 'utf8'));
  const next = pendingVersion(manifest.version, pkg, changesets);
  const results = manifest.specs.map((file) => {
    const current = path.join(specs, file);
    if (!existsSync(current)) throw new Error(`Missing ${current}: run npm run bundle first.`);
    const changes = classifyChanges(readYaml(path.join(baseline, 'openapi', file)), readYaml(current));
    return { file, changes, breaking: changes.filter((c) => c.type === 'breaking') };
  });
  // Note: an API the last release did not have (the sandbox's control API after 0.1.0) is all additions; nothing breaks.
  for (const file of newSpecs(manifest, specs)) results.push({ file, changes: [], breaking: [], added: true });
  const breaking = results.reduce((n, r) => n + r.breaking.length, 0);
  return {
    previous: manifest.version,
    next,
    results,
    breaking,
    ok: breaking === 0 || isMajorBump(manifest.version, next),
  };
}

/** Makes the current bundled specs the baseline of the package's current version (run after `changeset version`). */
export function recordBaseline({
  baseline = path.join(root, baselineDir),
  specs = path.join(root, 'packages/contract/generated/openapi'),
  packageFile = path.join(root, 'packages/contract/package.json'),
} = {}) {
  const manifest = readManifest(baseline);
  const { version } = JSON.parse(readFileSync(packageFile, 'utf8'));
  if (compareVersions(version, manifest.version) <= 0) {
    throw new Error(
      `package.json is at ${version}, not past the recorded ${manifest.version}: run changeset version first.`,
    );
  }
  mkdirSync(path.join(baseline, 'openapi'), { recursive: true });
  const files = [...manifest.specs, ...newSpecs(manifest, specs)];
  for (const file of files) copyFileSync(path.join(specs, file), path.join(baseline, 'openapi', file));
  writeFileSync(
    path.join(baseline, 'manifest.json'),
    `${JSON.stringify({ ...manifest, version, specs: files }, null, 2)}\n`,
  );
  return version;
}

/** The bundles in `specs` of the APIs in redocly.yaml that the baseline does not have yet. */
function newSpecs(manifest, specs) {
  return Object.values(apis)
    .map((api) => path.basename(api.output))
    .filter((file) => !manifest.specs.includes(file) && existsSync(path.join(specs, file)));
}

function readManifest(baseline) {
  const file = path.join(baseline, 'manifest.json');
  if (!existsSync(file)) throw new Error(`Missing ${file}: the baseline of the last release.`);
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  parseVersion(manifest.version);
  if (!Array.isArray(manifest.specs) || manifest.specs.length === 0) throw new Error(`${file} lists no specs.`);
  return manifest;
}

function readYaml(file) {
  if (!existsSync(file)) throw new Error(`Missing ${file}.`);
  return parse(readFileSync(file, 'utf8'));
}

// The version the next release will have: package.json's once it is bumped, else the baseline's plus the changesets.
function pendingVersion(previous, pkg, changesetsDir) {
  if (compareVersions(pkg.version, previous) < 0) {
    throw new Error(
      `package.json is at ${pkg.version}, behind the last release ${previous} recorded in ${baselineDir}/.`,
    );
  }
  if (pkg.version !== previous) return pkg.version;
  const texts = existsSync(changesetsDir)
    ? readdirSync(changesetsDir)
        .filter((f) => f.endsWith('.md') && f !== 'README.md')
        .map((f) => readFileSync(path.join(changesetsDir, f), 'utf8'))
    : [];
  return bumpVersion(previous, pendingBump(texts, pkg.name));
}

function report({ previous, next, results, breaking, ok }) {
  const bump = next === previous ? 'no version bump pending' : `pending version ${next}`;
  console.log(`Compared with the last release, ${previous} (${bump}):`);
  for (const { file, changes, breaking: found, added } of results) {
    if (added) {
      console.log(`  ${file}: new since the last release (every operation an addition)`);
      continue;
    }
    const counts = new Map();
    for (const { type } of changes) counts.set(type, (counts.get(type) ?? 0) + 1);
    const summary = [...counts].map(([type, n]) => `${n} ${type}`).join(', ');
    console.log(`  ${file}: ${summary || 'no changes'}`);
    for (const change of found) console.log(`    breaking: ${change.description}  (${change.path})`);
  }
  if (breaking === 0) console.log('No breaking change.');
  else if (ok) console.log(`${breaking} breaking change(s), allowed by the major bump ${previous} -> ${next}.`);
  else {
    console.error(
      `${breaking} breaking change(s) need a major bump (from 1.0.0 a new major; in 0.x a new minor), but the pending ` +
        `version is ${next}. Undo them, or add a changeset with \`npx changeset\` and choose the bump that allows them.`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const { values } = parseArgs({
      options: {
        record: { type: 'boolean' },
        baseline: { type: 'string' },
        specs: { type: 'string' },
        changesets: { type: 'string' },
        package: { type: 'string' },
      },
    });
    const dirs = {
      ...(values.baseline && { baseline: path.resolve(values.baseline) }),
      ...(values.specs && { specs: path.resolve(values.specs) }),
      ...(values.package && { packageFile: path.resolve(values.package) }),
    };
    const result = checkBreaking({
      ...dirs,
      ...(values.changesets && { changesets: path.resolve(values.changesets) }),
    });
    report(result);
    if (!result.ok) process.exit(1);
    if (values.record) console.log(`Recorded the bundled specs as the baseline of ${recordBaseline(dirs)}.`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
