// Install size: the package as a merchant installs it. It is packed as `npm publish` would (from a copy of the
// repository, scripts/lib/copy-repository.mjs, so that the build never races a test run's), then installed alone into an
// empty project from the tarball: the tarball's size, the packages npm adds and the megabytes node_modules holds.
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyRepository } from '../lib/copy-repository.mjs';
import { quietEnv } from '../lib/tools.mjs';
import { summarize } from './stats.mjs';

const MB = 2 ** 20;

const npm = (args, cwd) =>
  execFileSync('npm', args, {
    cwd,
    env: { ...quietEnv, npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * MB,
  });

/** What `dir` takes on disk, as `du` counts it (allocated blocks, links not followed), and its files' bytes. */
function sizeOf(dir) {
  const total = { disk: lstatSync(dir).blocks * 512, bytes: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = sizeOf(file);
      total.disk += inner.disk;
      total.bytes += inner.bytes;
    } else {
      const stat = lstatSync(file);
      total.disk += stat.blocks * 512;
      if (!entry.isSymbolicLink()) total.bytes += stat.size;
    }
  }
  return total;
}

const once = (value) => summarize([value]);

/** Rows: the packed tarball, and what installing it into an empty project adds. */
export function installSizes() {
  const work = mkdtempSync(path.join(tmpdir(), 'merchant-payments-install-'));
  try {
    const copy = copyRepository(work);
    const packed = npm(['pack', '--json', '--pack-destination', work], copy);
    // Note: prepack's own output comes first on stdout; the JSON report is the rest.
    const [info] = JSON.parse(packed.slice(packed.indexOf('[')));
    const tarball = path.join(work, info.filename);
    const project = path.join(work, 'project');
    mkdirSync(project);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'install-size', private: true }));
    npm(['install', '--no-audit', '--no-fund', '--ignore-scripts', tarball], project);
    const listed = npm(['ls', '--all', '--parseable'], project).trim().split('\n');
    const name = 'npm install <tarball> into an empty project';
    const size = sizeOf(path.join(project, 'node_modules'));
    return {
      rows: [
        { section: 'install', name: 'the packed tarball', unit: 'MB', ...once(statSync(tarball).size / MB) },
        // Note: npm ls lists the project itself first.
        {
          section: 'install',
          name: `${name}: packages added`,
          unit: 'packages',
          ...once(new Set(listed.slice(1)).size),
        },
        { section: 'install', name: `${name}: node_modules on disk (du)`, unit: 'MB', ...once(size.disk / MB) },
        { section: 'install', name: `${name}: node_modules, its files' bytes`, unit: 'MB', ...once(size.bytes / MB) },
      ],
      notes: [
        `Install: the tarball packed from a copy of the repository as npm publish would, installed with npm install --ignore-scripts into an empty project of its own; packages counted by npm ls --all, node_modules measured as du does (allocated blocks) and as its files' bytes, links not followed.`,
      ],
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
