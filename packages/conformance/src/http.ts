// Sending one request with the credentials, and recording it for the report with the credentials masked: the report
// and the curl line name the environment variables (`$PAYMENTS_ACCESS_TOKEN`), never their values.
import { maskedExcerpt, maskText, type Secret } from './mask.js';
import type { Outgoing } from './transport.js';
import type { Credentials, RequestRecord, ResponseRecord } from './types.js';

/** The environment variables the credentials come from. */
export const ENV = {
  accessToken: 'PAYMENTS_ACCESS_TOKEN',
  publicKey: 'PAYMENTS_PUBLIC_KEY',
  secretKey: 'PAYMENTS_SECRET_KEY',
} as const;

/** A request before it is sent: method, path with its parameters filled in, query, headers and JSON body. */
export interface Draft {
  method: string;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body?: unknown;
  /** Send the body as this text instead of JSON (a body that is not JSON). */
  rawBody?: string;
}

/** The headers that carry the credentials, with their values, and with the masked values the report shows. */
export function credentialHeaders(credentials: Credentials, masked = false): Record<string, string> {
  if ('accessToken' in credentials)
    return { Authorization: `Bearer ${masked ? `$${ENV.accessToken}` : credentials.accessToken}` };
  return {
    'X-Public-Key': masked ? `$${ENV.publicKey}` : credentials.publicKey,
    'X-Secret-Key': masked ? `$${ENV.secretKey}` : credentials.secretKey,
  };
}

/** The credentials as the secrets masking cuts out, each with the variable's name that takes its place. */
export function secretsOf(credentials: Credentials): Secret[] {
  return 'accessToken' in credentials
    ? [[credentials.accessToken, `$${ENV.accessToken}`]]
    : [
        [credentials.secretKey, `$${ENV.secretKey}`],
        [credentials.publicKey, `$${ENV.publicKey}`],
      ];
}

/** Replaces every credential value in `text`, in any encoding mask.ts knows, with its variable's name: a server may echo one back. */
export function maskSecrets(text: string, credentials: Credentials): string {
  return maskText(text, secretsOf(credentials));
}

/** The start of `text` as the report shows it: masked first, then cut to `max` characters. */
export function excerptOf(text: string, credentials: Credentials, max: number): string {
  return maskedExcerpt(text, secretsOf(credentials), max);
}

/** The full URL of a draft: the base URL, the path and the query. */
export function urlOf(baseUrl: string, draft: Draft): string {
  const query = new URLSearchParams(draft.query).toString();
  return `${baseUrl.replace(/\/+$/, '')}${draft.path}${query ? `?${query}` : ''}`;
}

const bodyText = (draft: Draft): string | undefined =>
  draft.rawBody ?? (draft.body === undefined ? undefined : JSON.stringify(draft.body));

/** The request to send; `credentials` undefined leaves the credential headers out. */
export function outgoingOf(baseUrl: string, draft: Draft, credentials: Credentials | undefined): Outgoing {
  const body = bodyText(draft);
  const headers = {
    ...draft.headers,
    ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...(credentials ? credentialHeaders(credentials) : {}),
  };
  return { method: draft.method, url: urlOf(baseUrl, draft), headers, ...(body === undefined ? {} : { body }) };
}

/** The request as the report shows it. */
export function recordOf(
  baseUrl: string,
  draft: Draft,
  credentials: Credentials,
  withCredentials: boolean,
): RequestRecord {
  const body = bodyText(draft);
  const headers = {
    ...draft.headers,
    ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...(withCredentials ? credentialHeaders(credentials, true) : {}),
  };
  const record: RequestRecord = { method: draft.method, url: urlOf(baseUrl, draft), headers };
  if (body !== undefined) record.body = excerptOf(body, credentials, 2000);
  return record;
}

/** A shell word in single quotes; the masked credentials go in double quotes so the shell fills them in. */
const quote = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const headerWord = (name: string, value: string) =>
  value.includes('$PAYMENTS_') ? `"${name}: ${value}"` : quote(`${name}: ${value}`);

/** A curl line that sends the recorded request again, reading the credentials from the environment. */
export function curlOf(record: RequestRecord): string {
  const parts = ['curl', '-i', '-X', record.method, quote(record.url)];
  for (const [name, value] of Object.entries(record.headers)) parts.push('-H', headerWord(name, value));
  if (record.body !== undefined) parts.push('--data-raw', quote(record.body));
  return parts.join(' ');
}

/** The response as the report shows it: status, Content-Type and the start of the body. */
export function responseRecordOf(
  status: number,
  contentType: string | null,
  text: string,
  credentials: Credentials,
): ResponseRecord {
  return { status, contentType, bodyExcerpt: excerptOf(text, credentials, 500) };
}
