// Plain checks of the control API's requests against the bounds its document (openapi/sandbox/) declares. The
// precompiled validators cover the variants only; test/sandbox/control-document.test.ts holds these rules to the document.
import type { FieldError } from '../http/problem.js';

/** Judges one value: undefined when it fits, else what is wrong with it. */
export type Rule = (value: unknown) => string | undefined;

const quote = (value: unknown) => JSON.stringify(value);

/** A whole number from `min` to `max`. */
export const integer = (min: number, max: number): Rule => (value) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max ? undefined : `Must be a whole number from ${min} to ${max}.`;

/** One of `values`. */
export const oneOf = (values: readonly unknown[]): Rule => (value) =>
  values.includes(value) ? undefined : `Must be one of ${values.map(quote).join(', ')}.`;

/** A string matching `pattern`, of at most `max` characters. */
export const text = (pattern: RegExp, max: number, what: string): Rule => (value) =>
  typeof value === 'string' && value.length <= max && pattern.test(value) ? undefined : `Must be ${what}.`;

/** The contract's ResourceId: 1 to 64 of `[A-Za-z0-9_-]`. */
export const resourceId = text(/^[A-Za-z0-9_-]{1,64}$/, 64, '1 to 64 characters from A-Z, a-z, 0-9, "_" and "-"');

// Note: the characters RFC 3986 allows in a URI, so that what passes here passes the document's `format: uri` too.
const URI = /^https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;

/** True when an http(s) URL holds a user name or password: an "@" before its path, as the document's pattern reads it. */
export const hasUserInfo = (url: string): boolean => /^https?:\/\/[^/?#]*@/.test(url);

/** WebhookEndpointUrl: an absolute http or https URL of at most 2048 characters, without a user name or password. */
export const webhookUrl: Rule = (value) => {
  if (typeof value !== 'string' || value.length > 2048 || !URI.test(value) || !URL.canParse(value)) return 'Must be an absolute http or https URL of at most 2048 characters.';
  // Note: a credential in the URL would travel with every delivery and could be shown back in listings and errors.
  return hasUserInfo(value) ? "Must not hold a user name or password; pass a credential through the receiver's own configuration instead." : undefined;
};

/** WebhookSecret: `whsec_` and the padded base64 of at least 24 bytes, 38 to 256 characters. */
export const webhookSecret = text(
  /^whsec_(?:[A-Za-z0-9+/]{4}){8,}(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  256,
  'a whsec_ secret: "whsec_" and the padded base64 of at least 24 bytes',
);

/** The Idempotency-Key header's rule (ControlIdempotencyKey). */
export const idempotencyKey = text(/^[A-Za-z0-9_-]{1,64}$/, 64, '1 to 64 characters from A-Z, a-z, 0-9, "_" and "-"');

/** A JSON object body: its required members and a rule for each member it may have (any other is refused). */
export interface BodyRules {
  required: readonly string[];
  properties: Readonly<Record<string, Rule>>;
}

/** Every way `body` breaks `rules`, each at its JSON Pointer. */
export function checkBody(body: unknown, rules: BodyRules): FieldError[] {
  if (body === undefined) return [{ pointer: '', detail: 'A request body is required.' }];
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [{ pointer: '', detail: 'Must be a JSON object.' }];
  const errors: FieldError[] = [];
  for (const name of rules.required) {
    if (!Object.hasOwn(body, name)) errors.push({ pointer: `/${name}`, detail: `Required property ${quote(name)} is missing.` });
  }
  for (const [name, value] of Object.entries(body)) {
    const rule = Object.hasOwn(rules.properties, name) ? rules.properties[name] : undefined;
    const detail = rule ? rule(value) : `Unknown property ${quote(name)}.`;
    if (detail) errors.push({ pointer: `/${name.replaceAll('~', '~0').replaceAll('/', '~1')}`, detail });
  }
  return errors;
}

/** A query parameter: how its text is read (an integer, or as it is), its rule and its default. */
export interface QueryRule {
  integer?: boolean;
  rule: Rule;
  default?: unknown;
}

const INTEGER = /^-?(0|[1-9][0-9]*)$/;

/** The query's declared parameters as values (defaults filled in), or every way they break their rules. */
export function checkQuery(query: URLSearchParams, rules: Readonly<Record<string, QueryRule>>): { values: Record<string, unknown>; errors: FieldError[] } {
  const values: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const [name, spec] of Object.entries(rules)) {
    const sent = query.getAll(name);
    if (sent.length === 0) {
      if (spec.default !== undefined) values[name] = spec.default;
      continue;
    }
    if (sent.length > 1) {
      errors.push({ pointer: `/${name}`, detail: `Query parameter ${quote(name)} must be given once, not ${sent.length} times.` });
      continue;
    }
    const value = spec.integer && INTEGER.test(sent[0]!) ? Number(sent[0]) : sent[0];
    const detail = spec.rule(value);
    if (detail) errors.push({ pointer: `/${name}`, detail: `Query parameter ${quote(name)}: ${detail}` });
    else values[name] = value;
  }
  return { values, errors };
}
