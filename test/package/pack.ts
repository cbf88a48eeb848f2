// Packs the package as `npm publish` would (prepack builds dist/ first) and says where the tarball is.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from '../../scripts/lib/tools.mjs';

/** The packed tarball and the files npm put in it. */
export interface PackedTarball {
  tarball: string;
  files: string[];
}

/** Runs `npm pack` in the repository into `destination`; throws with npm's output when it fails. */
export function packTarball(destination: string): PackedTarball {
  const packed = spawnSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1' },
  });
  if (packed.error) throw packed.error;
  if (packed.status !== 0) throw new Error(`npm pack exited ${packed.status}:\n${packed.stdout}\n${packed.stderr}`);
  // Note: prepack's own output comes first on stdout; the JSON report is the rest.
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  return { tarball: path.join(destination, info!.filename), files: info!.files.map((file) => file.path) };
}
