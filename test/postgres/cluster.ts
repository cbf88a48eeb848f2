// Starts a throwaway PostgreSQL cluster for the tests (initdb and pg_ctl in a temporary folder, on a free port of
// 127.0.0.1) and stops it by its postmaster's pid.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import { alive, stillAlive } from '../mock/processes.js';

/** A running cluster: a URL of its `postgres` database (user `postgres`, no password), its port and postmaster pid. */
export interface Cluster {
  url: string;
  port: number;
  pid: number;
  /** The temporary folder: the data directory, the socket and the server's log. */
  dir: string;
  /** Stops the postmaster by its pid, whatever state it is in, and removes the folder; resolves once both are gone. */
  stop(): Promise<void>;
}

const watchdog = fileURLToPath(new URL('./watchdog.mjs', import.meta.url));

/** Options of startCluster. */
export interface ClusterOptions {
  /** Whether commits reach the disk (default false: tests need no durability, and fsync costs milliseconds here). */
  fsync?: boolean;
  /** Libraries the server loads at start (shared_preload_libraries), such as pg_stat_statements for the bench. */
  preload?: string[];
}

/** Starts a cluster; a failed start leaves nothing behind and rejects with the command's output. */
export async function startCluster({ fsync = false, preload = [] }: ClusterOptions = {}): Promise<Cluster> {
  const bin = binaries();
  // Note: PostgreSQL refuses to run as root, and CI runs as root: then the folder and the server are the postgres user's.
  const asRoot = process.getuid?.() === 0;
  const dir = await mkdtemp(path.join(tmpdir(), 'merchant-payments-pg-'));
  const data = path.join(dir, 'data');
  const run = (command: string, args: string[]) => runCommand(path.join(bin, command), args, dir, asRoot);
  let pid: number | undefined;
  let unguard = () => {};
  const stop = async () => {
    // Note: a start that failed or timed out may still have left a postmaster, which wrote its pid.
    pid ??= postmasterPid(data);
    if (pid !== undefined && alive(pid)) {
      await run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      if ((await stillAlive([pid])).length > 0) killQuietly(pid);
      await stillAlive([pid]);
    }
    await rm(dir, { recursive: true, force: true });
    unguard();
  };
  try {
    if (asRoot) await chown(dir, ...postgresIds());
    await run('initdb', [
      '-D',
      data,
      '--auth=trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
      '--no-instructions',
    ]);
    const port = await getPort();
    const libraries = preload.length > 0 ? ` -c shared_preload_libraries=${preload.join(',')}` : '';
    const server = `-p ${port} -k '${dir}' -c listen_addresses=127.0.0.1 -c fsync=${fsync ? 'on' : 'off'}${libraries}`;
    await run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      server,
      'start',
    ]).catch((error: Error) => Promise.reject(new Error(`${error.message}\nserver.log:\n${readLog(dir)}`)));
    pid = postmasterPid(data);
    if (pid === undefined) throw new Error(`pg_ctl started no postmaster:\n${readLog(dir)}`);
    unguard = guard(pid, dir);
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, pid, dir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The folder of initdb and pg_ctl: PG_BIN, else the highest major version under /usr/lib/postgresql. */
function binaries(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root).filter((name) => existsSync(path.join(root, name, 'bin/initdb')))
    : [];
  const highest = majors.sort((a, b) => Number(b) - Number(a))[0];
  if (highest === undefined) {
    throw new Error(
      `No PostgreSQL under ${root}/<major>/bin: install Debian's postgresql (.ci/run does) or set PG_BIN.`,
    );
  }
  return path.join(root, highest, 'bin');
}

/** The first line of the data directory's postmaster.pid, while there is one. */
function postmasterPid(data: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function readLog(dir: string): string {
  try {
    return readFileSync(path.join(dir, 'server.log'), 'utf8');
  } catch {
    return '(no server.log)';
  }
}

function postgresIds(): [number, number] {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return [id('-u'), id('-g')];
}

/** Runs a PostgreSQL command (as the postgres user when we are root) to completion; rejects with its output. */
function runCommand(command: string, args: string[], cwd: string, asRoot: boolean): Promise<void> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  // Note: the cwd is the temporary folder, since the postgres user may not be allowed into the checkout.
  const child = spawn(file, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(command)} ${args.join(' ')} exited with ${code}:\n${output}`));
    });
  });
}

/**
 * Starts watchdog.mjs, which stops the postmaster and removes the folder when this process dies without calling
 * stop(), even by SIGKILL: pg_ctl detaches the postmaster, so nothing else ties it to the test run. Returns the
 * function that lets the watchdog go, once stop() does its job.
 */
function guard(pid: number, dir: string): () => void {
  const child = spawn(process.execPath, [watchdog, String(pid), dir], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
  });
  child.stdin.on('error', () => {});
  // Note: the pipe is the lifeline, closed by the kernel when this process dies; unref'd, so it keeps nothing alive.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  return () => child.stdin.end();
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Note: ESRCH: it exited between the check and the signal.
  }
}
