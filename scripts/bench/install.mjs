// Install size: each package as its users install it. The four are packed as `npm publish` would (from a copy of the
// repository, scripts/lib/copy-repository.mjs, so that the build never races a test run's), then each is installed
// alone into an empty project of its own, with the tarballs of the workspaces it depends on as the registry would
// bring them: the tarball's size, the packages npm adds and the megabytes node_modules holds.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { copyRepository, packArgs, packReport } from '../lib/copy-repository.mjs';
import { sizeOf } from '../lib/disk-size.mjs';
import { quietEnv } from '../lib/tools.mjs';
import { packages, withWorkspaceDependencies } from '../lib/workspaces.mjs';
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

const once = (value) => summarize([value]);

/** Rows: per package, its packed tarball and what installing it alone into an empty project adds. */
export function installSizes() {
  const work = mkdtempSync(path.join(tmpdir(), 'merchant-payments-install-'));
  try {
    const packed = packReport(npm(packArgs(work), copyRepository(work)), work);
    const rows = packages.flatMap((name) => {
      const project = path.join(work, `alone-${name}`);
      mkdirSync(project);
      writeFileSync(
        path.join(project, 'package.json'),
        JSON.stringify({ name: `install-size-${name}`, private: true }),
      );
      const tarballs = withWorkspaceDependencies(name).map((dependency) => packed[dependency].tarball);
      npm(['install', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], project);
      // Note: npm ls lists the project itself first.
      const listed = npm(['ls', '--all', '--parseable'], project).trim().split('\n').slice(1);
      const size = sizeOf(path.join(project, 'node_modules'));
      const label = `@merchant-payments/${name}`;
      // Note: the contract is what every merchant installs; issue 31 held it to 4 packages and 3 MB on disk.
      const limits = name === 'contract' ? { packages: 4, megabytes: 3 } : undefined;
      const within = (limit, value) => (limit === undefined ? {} : { target: `<= ${limit}`, met: value <= limit });
      const count = new Set(listed).size;
      return [
        {
          section: 'install',
          name: `${label}: the packed tarball`,
          unit: 'MB',
          ...once(statSync(packed[name].tarball).size / MB),
        },
        {
          section: 'install',
          name: `${label} alone: packages added`,
          unit: 'packages',
          ...once(count),
          ...within(limits?.packages, count),
        },
        {
          section: 'install',
          name: `${label} alone: node_modules on disk (du)`,
          unit: 'MB',
          ...once(size.disk / MB),
          ...within(limits?.megabytes, size.disk / MB),
        },
        {
          section: 'install',
          name: `${label} alone: node_modules, its files' bytes`,
          unit: 'MB',
          ...once(size.bytes / MB),
        },
      ];
    });
    return {
      rows,
      notes: [
        `Install: the four tarballs packed from a copy of the repository as npm publish would (npm pack --workspaces); each package installed with npm install --ignore-scripts into an empty project of its own, with the tarballs of the workspaces it depends on; packages counted by npm ls --all (the package itself included), node_modules measured as du does (allocated blocks) and as its files' bytes, links not followed.`,
      ],
    };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
