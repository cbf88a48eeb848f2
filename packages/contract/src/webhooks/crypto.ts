// Bytes and HMAC primitives that work in Node and wherever only Web Crypto exists.

const SECRET_PREFIX = 'whsec_';
const MIN_SECRET_BYTES = 24;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CACHE_LIMIT = 32;
const encoder = new TextEncoder();

interface NodeHmac {
  update(data: Uint8Array | string): NodeHmac;
  digest(encoding: 'base64'): string;
}

interface NodeCrypto {
  createHmac(algorithm: 'sha256', key: Uint8Array): NodeHmac;
  timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

/** A raw body as receivers get it: text, bytes (a Node Buffer is a Uint8Array) or an ArrayBuffer. */
export type WebhookBody = string | Uint8Array | ArrayBuffer;

/** The body as bytes; text is encoded as UTF-8. */
export function bodyBytes(body: WebhookBody): Uint8Array {
  if (typeof body === 'string') return encoder.encode(body);
  return body instanceof Uint8Array ? body : new Uint8Array(body);
}

/** Encodes text as UTF-8. */
export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** Concatenates byte arrays. */
export function concatBytes(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

/** Standard base64 of bytes. */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Bytes of strict, padded standard base64, or undefined when the text is not that. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64.test(text)) return undefined;
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** HMAC key bytes (always backed by a plain ArrayBuffer, as Web Crypto requires). */
export type KeyBytes = Uint8Array<ArrayBuffer>;

const keyCache = new Map<string, KeyBytes>();

/** The HMAC key bytes of a `whsec_…` secret; throws a TypeError naming the problem (never the secret). */
export function secretKey(secret: unknown, position = 0): KeyBytes {
  const cached = typeof secret === 'string' ? keyCache.get(secret) : undefined;
  if (cached) return cached;
  const label = `Webhook secret #${position + 1}`;
  if (typeof secret !== 'string' || !secret.startsWith(SECRET_PREFIX)) {
    throw new TypeError(
      `${label} must be a string starting with "${SECRET_PREFIX}"; copy the endpoint's signing secret exactly as shown.`,
    );
  }
  const key = fromBase64(secret.slice(SECRET_PREFIX.length));
  if (!key || key.length < MIN_SECRET_BYTES) {
    throw new TypeError(
      `${label} is malformed: after "${SECRET_PREFIX}" it must be padded base64 of at least ${MIN_SECRET_BYTES} bytes; check for missing characters or whitespace.`,
    );
  }
  remember(keyCache, secret, key);
  return key;
}

/** All key bytes of one secret or several (rotation); throws a TypeError when none is given or one is malformed. */
export function secretKeyList(secrets: unknown): KeyBytes[] {
  const list: readonly unknown[] = Array.isArray(secrets) ? secrets : [secrets];
  if (list.length === 0) throw new TypeError('At least one webhook secret is required.');
  return list.map((secret, position) => secretKey(secret, position));
}

function nodeCrypto(): NodeCrypto | undefined {
  // Note: looked up at run time, without a static import, so bundles for Web-Crypto-only runtimes still load.
  const runtime = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  return runtime.process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
}

const webKeys = new Map<KeyBytes, Promise<CryptoKey>>();

/** Signed content as its parts, in order: hashing them one after another avoids copying a large body. */
export type SignedParts = readonly (string | Uint8Array)[];

/**
 * Base64 HMAC-SHA256 of the parts' concatenation: synchronously with node:crypto when the runtime has it,
 * as a promise with Web Crypto otherwise.
 */
export function hmacSha256Base64(key: KeyBytes, parts: SignedParts): string | Promise<string> {
  const node = nodeCrypto();
  if (!node) return webHmacSha256Base64(key, parts);
  const hmac = node.createHmac('sha256', key);
  for (const part of parts) hmac.update(part);
  return hmac.digest('base64');
}

async function webHmacSha256Base64(key: KeyBytes, parts: SignedParts): Promise<string> {
  const content = concatBytes(...parts.map((part) => (typeof part === 'string' ? utf8(part) : part)));
  let cryptoKey = webKeys.get(key);
  if (!cryptoKey) {
    cryptoKey = crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    remember(webKeys, key, cryptoKey);
  }
  return toBase64(new Uint8Array(await crypto.subtle.sign('HMAC', await cryptoKey, content)));
}

/** Whether two strings are equal, in time that depends only on their length. */
export function timingSafeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const node = nodeCrypto();
  const [left, right] = [utf8(a), utf8(b)];
  if (node && left.length === right.length) return node.timingSafeEqual(left, right);
  let difference = 0;
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

function remember<K, V>(cache: Map<K, V>, key: K, value: V): void {
  // Note: a bound keeps a process that is handed ever-new secrets from growing without limit.
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
}
