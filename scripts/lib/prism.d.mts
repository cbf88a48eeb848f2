// Types for prism.mjs.

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
  upstream?: string;
}

/** Absolute path of Prism's JS entry. */
export function prismEntry(): string;
/** Starts `prism mock <spec>` (or `prism proxy <spec> <upstream>`) and resolves once it listens. */
export function startPrism(options: StartPrismOptions): Promise<PrismServer>;
/** Returns a free TCP port on `host`. */
export function freePort(host?: string): Promise<number>;
/** Returns `count` distinct free TCP ports on `host`. */
export function freePorts(count: number, host?: string): Promise<number[]>;
