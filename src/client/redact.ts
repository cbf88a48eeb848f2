// Keeps credentials out of log lines, error messages and the causes errors carry.

/** Headers whose values are never logged. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-public-key',
  'x-secret-key',
  'cookie',
  'set-cookie',
]);

const REDACTED = '[REDACTED]';

/** The headers as a plain object, with every credential-bearing value replaced by `[REDACTED]`. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = SECRET_HEADERS.has(name) || /secret|token|password/i.test(name) ? REDACTED : value;
  });
  return out;
}

/** Removes a client's credentials from texts and from the errors it wraps. */
export interface Scrubber {
  /** The text with every occurrence of a credential replaced by `[REDACTED]`. */
  text(value: string): string;
  /** The error itself when no credential shows in it or its causes; otherwise a plain Error with the scrubbed message. */
  cause(error: unknown): unknown;
}

/** A Scrubber for the given secrets. */
export function createScrubber(secrets: readonly string[]): Scrubber {
  const values = secrets.filter((s) => s.length > 0);
  const text = (value: string) => values.reduce((t, secret) => t.split(secret).join(REDACTED), value);
  // Note: defence in depth: credentials are validated so that fetch's own errors never quote them,
  // but a custom fetch could still put a header into its error, where util.inspect would print it.
  const cause = (error: unknown) => {
    const printed = printable(error);
    if (text(printed) === printed) return error;
    const scrubbed = new Error(text(error instanceof Error ? error.message : String(error)));
    scrubbed.name = error instanceof Error ? error.name : 'Error';
    return scrubbed;
  };
  return { text, cause };
}

// What util.inspect could show of an error chain: messages, stacks and primitive own properties.
function printable(error: unknown, depth = 0): string {
  if (depth > 5 || error === null || typeof error !== 'object') return String(error);
  const own = Object.values(error).filter((v) => typeof v !== 'object' && typeof v !== 'function').map(String);
  const e = error as { message?: unknown; stack?: unknown; cause?: unknown };
  return [String(e.message), String(e.stack), ...own, printable(e.cause, depth + 1)].join('\n');
}
