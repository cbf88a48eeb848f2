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
const EXCERPT_CHARS = 200;

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
  /** A credential-free stand-in for an error some other code threw (see ScrubbedError). */
  cause(error: unknown): ScrubbedError;
}

/** What is left of a foreign error: its name, its `code` and the messages of its chain, credentials removed. */
export class ScrubbedError extends Error {
  /** The original error's `code`, e.g. `ECONNREFUSED`, when it had a short one. */
  readonly code: string | undefined;

  constructor(name: string, message: string, code: string | undefined) {
    super(message);
    this.name = name;
    this.code = code;
  }
}

/** The start of a body for messages: credentials scrubbed, control characters flattened, at most 200 characters. */
export function excerptOf(text: string, scrub: Scrubber): string {
  // Note: scrubbed before it is cut, so a credential cannot survive half-cut at the end.
  const flat = scrub
    .text(text)
    .replace(/[\u0000-\u001F\u007F]+/g, ' ')
    .trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

const MAX_CHAIN = 4;
const MAX_PART = 300;

/** A Scrubber for the given secrets. */
export function createScrubber(secrets: readonly string[]): Scrubber {
  const values = secrets.filter((s) => s.length > 0);
  const text = (value: string) => values.reduce((t, secret) => t.split(secret).join(REDACTED), value);
  // Note: a caller's fetch may throw anything: an error whose properties, `errors`, deep causes or a Request
  // hold the headers. Walking such a graph for secrets always misses a path, so a fresh error is built
  // from a few strings instead, and the original is never kept.
  const cause = (error: unknown) => {
    const code = read(error, 'code');
    const name = read(error, 'name');
    return new ScrubbedError(
      typeof name === 'string' && /^\w{1,40}$/.test(name) ? name : 'Error',
      text(chainMessages(error).join(': ')),
      typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : undefined,
    );
  };
  return { text, cause };
}

// The messages of an error and its causes (and of an AggregateError's first errors), each cut short.
function chainMessages(error: unknown): string[] {
  const parts: string[] = [];
  let current = error;
  for (let depth = 0; depth < MAX_CHAIN && current !== undefined && current !== null; depth++) {
    const message = typeof current === 'object' ? read(current, 'message') : current;
    if (typeof message === 'string' || typeof message === 'number') parts.push(String(message).slice(0, MAX_PART));
    const errors = read(current, 'errors');
    if (Array.isArray(errors) && errors.length > 0) parts.push(chainMessages(errors[0]).join(': '));
    current = read(current, 'cause');
  }
  return parts.length > 0 ? parts : ['unknown error'];
}

// Note: the thrown value may be a Proxy or carry throwing getters; reading it must not throw in turn.
function read(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}
