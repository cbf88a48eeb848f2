// Packs every package as `npm publish` would (each prepack builds its dist/ first), once per test run, for every file
// that needs the tarballs. It packs a copy of the repository made for the run, never the repository itself: a build
// deletes dist/ first, so two packs in one folder (two test runs at once) would each pack half of the other's build.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { copyRepository, packArgs, packReport } from '../../scripts/lib/copy-repository.mjs';
import { withWorkspaceDependencies } from '../../scripts/lib/workspaces.mjs';

/** A packed tarball and the files npm put in it. */
export interface PackedTarball {
  tarball: string;
  files: string[];
}

/** The packages, by their folder's name under packages/. */
export type PackageName = 'contract' | 'sandbox' | 'conformance' | 'cli';

/** Every package's tarball. */
export type PackedTarballs = Record<PackageName, PackedTarball>;

/** The tarballs that install `name` as the registry would: its own and those of the workspaces it depends on. */
export const tarballsFor = (name: PackageName, packed: PackedTarballs): string[] =>
  (withWorkspaceDependencies(name) as PackageName[]).map((dependency) => packed[dependency].tarball);

const WAIT_MS = 240_000;

/**
 * The tarballs of this test run: the first caller packs them into the run's pack folder (see global-setup.ts) while
 * later callers, in this or another worker, wait for them. Rejects with npm's output when packing failed.
 */
export async function packedTarballs(): Promise<PackedTarballs> {
  const dir = inject('packDir');
  const [packed, failed] = [path.join(dir, 'packed.json'), path.join(dir, 'failed.txt')];
  try {
    // Note: mkdir is atomic, so exactly one caller takes the lock and packs.
    mkdirSync(path.join(dir, 'lock'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return packedElsewhere(packed, failed);
  }
  try {
    const result = await pack(dir);
    // Note: written whole and then renamed, so a waiting caller never reads half of it.
    writeFileSync(`${packed}.tmp`, JSON.stringify(result));
    renameSync(`${packed}.tmp`, packed);
    return result;
  } catch (error) {
    writeFileSync(failed, (error as Error).message);
    throw error;
  }
}

/** Waits for the caller that took the lock: its tarball, or a rejection when it failed or took too long. */
async function packedElsewhere(packed: string, failed: string): Promise<PackedTarballs> {
  for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await sleep(200)) {
    if (existsSync(packed)) return JSON.parse(readFileSync(packed, 'utf8')) as PackedTarballs;
    if (existsSync(failed)) throw new Error(`packing failed in another test file:\n${readFileSync(failed, 'utf8')}`);
  }
  throw new Error(`the tarballs were not packed within ${WAIT_MS / 1000} s`);
}

/** Runs `npm pack` of every workspace in a copy of the repository into `destination`; rejects with npm's output when it fails. */
function pack(destination: string): Promise<PackedTarballs> {
  const child = spawn('npm', packArgs(destination), {
    cwd: copyRepository(destination),
    env: { ...process.env, NO_UPDATE_NOTIFIER: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let [stdout, stderr] = ['', ''];
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-100_000)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`npm pack exited ${code}:\n${stdout}\n${stderr}`));
      resolve(packReport(stdout, destination) as PackedTarballs);
    });
  });
}
