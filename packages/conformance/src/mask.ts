// Cutting secrets out of what the report shows. A server may echo a credential in any encoding (a JSON string escapes
// it, a query string percent-encodes it, a Basic or token header base64-encodes it), and a text may reach the kit
// already cut (Respect's output, its report), so an exact match alone leaks. Masking comes first; excerpts are cut after.

/** A secret and the name the report shows in its place. */
export type Secret = readonly [value: string, name: string];

/** Shorter secret fragments are not masked at a text's edges: they carry too little to matter and match too much. */
const MIN_EDGE = 4;
/** A base64 run shorter than this, cut out of a longer payload, is left alone for the same reason. */
const MIN_BASE64_CORE = 8;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const base64 = (bytes: Buffer) => bytes.toString('base64');
const base64url = (bytes: Buffer) => bytes.toString('base64url');

/**
 * The base64 characters that depend on the secret's bytes alone, when the secret starts `offset` bytes into a longer
 * payload (`user:secret` in a Basic header, a JSON body): the characters at its edges mix in the neighbours' bits.
 */
function base64Cores(secret: Buffer): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const padded = Buffer.concat([Buffer.alloc(offset), secret, Buffer.alloc(2)]);
    const start = Math.ceil((offset * 8) / 6);
    const end = Math.floor(((offset + secret.length) * 8) / 6);
    for (const encode of [base64, base64url]) {
      const core = encode(padded).slice(start, end);
      if (core.length >= MIN_BASE64_CORE) cores.push(core);
    }
  }
  return cores;
}

/** Every form the secret may take in a text, longest first so that a whole encoding goes before its core. */
function formsOf(secret: string): { exact: string[]; caseless: string[] } {
  const json = JSON.stringify(secret).slice(1, -1);
  // Note: percent-encoding may use either case of hex digit, so those forms match without regard to case.
  const caseless = [encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)];
  const plain = [secret, json, json.replaceAll('/', '\\/')];
  // Note: a base64 payload usually wraps a JSON body or a query string, so the secret is looked for as it reads there too.
  const encoded = [...plain, ...caseless].flatMap((form) => {
    const bytes = Buffer.from(form, 'utf8');
    return [base64(bytes), base64url(bytes), ...base64Cores(bytes)];
  });
  const exact = [...plain, ...encoded];
  const unique = (forms: string[]) =>
    [...new Set(forms)].filter((form) => form.length > 0).sort((x, y) => y.length - x.length);
  return { exact: unique(exact), caseless: unique(caseless) };
}

/** The longest prefix of `secret` (at least MIN_EDGE long) that `text` ends with, or 0. */
function trailingPrefix(text: string, secret: string): number {
  for (let length = Math.min(secret.length - 1, text.length); length >= MIN_EDGE; length -= 1) {
    if (text.endsWith(secret.slice(0, length))) return length;
  }
  return 0;
}

/** The longest suffix of `secret` (at least MIN_EDGE long) that `text` starts with, or 0. */
function leadingSuffix(text: string, secret: string): number {
  for (let length = Math.min(secret.length - 1, text.length); length >= MIN_EDGE; length -= 1) {
    if (text.startsWith(secret.slice(-length))) return length;
  }
  return 0;
}

/**
 * `text` with every secret replaced by its name: raw, JSON-escaped, URL-encoded or base64 (standard or URL-safe, alone
 * or inside a longer payload), and a piece of one left at either edge by an earlier cut.
 */
export function maskText(text: string, secrets: readonly Secret[]): string {
  let masked = text;
  for (const [secret, name] of secrets) {
    if (secret.length === 0) continue;
    const { exact, caseless } = formsOf(secret);
    for (const form of exact) masked = masked.replaceAll(form, name);
    for (const form of caseless) masked = masked.replace(new RegExp(escapeRegExp(form), 'gi'), name);
    const tail = trailingPrefix(masked, secret);
    if (tail > 0) masked = `${masked.slice(0, -tail)}${name}`;
    const head = leadingSuffix(masked, secret);
    if (head > 0) masked = `${name}${masked.slice(head)}`;
  }
  return masked;
}

/** The masked text, cut to `max` characters with an ellipsis: cutting after masking leaves no piece of a secret. */
export function maskedExcerpt(text: string, secrets: readonly Secret[], max: number): string {
  // Note: an encoded secret is at most six times as long (a JSON \u escape per character), so any form that reaches into
  // the first `max` characters lies whole within this window, and a large body is not masked end to end.
  const reach = Math.max(0, ...secrets.map(([secret]) => secret.length)) * 6;
  const window = max + reach + 1;
  const masked = maskText(text.slice(0, window), secrets);
  return masked.length > max || text.length > window ? `${masked.slice(0, max)}…` : masked;
}
