// Starts the Prism contract mock as a child process that is stopped by pid and dies with its parent.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  SERVER_TIMEOUTS_PRELOAD,
  SERVER_TIMEOUTS_VARIABLE,
  type ServerTimeouts,
} from '@merchant-payments/contract/internal/shared/server-timeouts.js';
import {
  collectOutput,
  hasExited,
  spawnTiedNode,
  stopChild,
} from '@merchant-payments/contract/internal/shared/children.js';
import { assertPortFree, waitForPort } from './ports.js';

const require = createRequire(import.meta.url);

/**
 * The preload that makes the mock answer a body that is not valid JSON with the contract's 400 problem, where Prism's
 * server answers one of its own (problem-preload.js); a file URL, beside this module in src/ as in dist/.
 */
export const PROBLEM_PRELOAD = new URL('./problem-preload.js', import.meta.url).href;

/** A running Prism mock. */
export interface PrismServer {
  url: string;
  port: number;
  pid: number;
  /** SIGTERM by pid, SIGKILL after a grace period; resolves once the process has exited. */
  stop(): Promise<void>;
  /** The last lines Prism wrote to stdout and stderr. */
  output(): string;
  /** Settles with the exit code (or signal name) when the process exits. */
  exited: Promise<number | string | null>;
}

/** Options for startPrism. */
export interface StartPrismOptions {
  spec: string;
  port: number;
  host?: string;
  errors?: boolean;
  logLevel?: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
  echo?: (line: string) => void;
  timeoutMs?: number;
  /** Proxy to this server instead of mocking: requests and responses that break the spec become 500 problems (with `errors`). */
  upstream?: string | undefined;
  /**
   * With `upstream`: false passes every request on unchecked, so that the server's own answers to bad requests (its
   * 400 and 422) reach the check too, instead of Prism's; responses are checked either way. Default true.
   */
  validateRequest?: boolean;
  /** The time-outs of Prism's server (default DEFAULT_SERVER_TIMEOUTS), applied by a preload as applyServerTimeouts does. */
  timeouts?: ServerTimeouts;
}

/** Absolute path of Prism's JS entry, read from the `bin` of its package.json. */
export function prismEntry(): string {
  const manifest = require.resolve('@stoplight/prism-cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: string | { prism: string } };
  return path.resolve(path.dirname(manifest), typeof bin === 'string' ? bin : bin.prism);
}

/**
 * Starts `prism mock <spec>`, or `prism proxy <spec> <upstream>` when `upstream` is given (every request and
 * response passing through is checked against the spec), and resolves once it listens.
 */
export async function startPrism({
  spec,
  port,
  host = '127.0.0.1',
  errors = true,
  logLevel = 'warn',
  echo,
  timeoutMs = 30000,
  upstream,
  validateRequest = true,
  timeouts,
}: StartPrismOptions): Promise<PrismServer> {
  if (!existsSync(spec)) throw new Error(`Spec not found: ${spec}`);
  await assertPortFree(port, host);
  const mode = upstream === undefined ? ['mock', spec] : ['proxy', spec, upstream];
  // Note: --no-multiprocess because NODE_ENV=production would otherwise fork a cluster worker,
  // and the pid we hold would not be the one serving requests.
  const args = [...mode, '-h', host, '-p', String(port), '-v', logLevel, '--no-multiprocess'];
  if (errors) args.push('--errors');
  if (!validateRequest) args.push('--validate-request', 'false');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FORCE_COLOR: '0',
    [SERVER_TIMEOUTS_VARIABLE]: timeouts === undefined ? undefined : JSON.stringify(timeouts),
  };
  // Note: the proxy leaves a malformed body to the upstream's judgement, so only the mock's answer is replaced.
  const preloads = [SERVER_TIMEOUTS_PRELOAD, ...(upstream === undefined ? [PROBLEM_PRELOAD] : [])];
  const child = spawnTiedNode(prismEntry(), args, { env, nodeArgs: preloads.flatMap((file) => ['--import', file]) });
  const output = collectOutput(child, { echo });
  const exited = new Promise<number | string | null>((resolve) =>
    child.once('exit', (code, sig) => resolve(code ?? sig)),
  );
  try {
    await waitForPort(port, host, { timeoutMs, isDead: () => hasExited(child) });
  } catch (err) {
    await stopChild(child);
    throw new Error(
      `Prism did not start for ${spec} on ${host}:${port}: ${(err as Error).message}\n${withoutUsage(output())}`,
      { cause: err },
    );
  }
  return { url: `http://${host}:${port}`, port, pid: child.pid!, stop: () => stopChild(child), output, exited };
}

// Note: Prism prints its whole yargs usage text before a fatal error; keep only the useful lines.
function withoutUsage(text: string): string {
  return text.replace(/^prism mock <document>[\s\S]*?\[default: null\]\s*$/m, '').trim();
}
