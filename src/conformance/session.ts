// What a stage works with: sending a request (with or without the credentials), recording a check, the statuses seen
// through the API, the sandbox's control client, and the checks collected so far, one entry per stage, subject and
// check, holding the first failure.
import { createSandboxControlClient, type SandboxControlClient } from '../sandbox/control-client.js';
import { randomUUID } from 'node:crypto';
import { operationsOf, type OperationSpec, type Variant } from '../validation/index.js';
import { judge, RULES, type Answer, type RequestKind, type Verdict } from './checks.js';
import { curlOf, maskSecrets, outgoingOf, recordOf, responseRecordOf, type Draft } from './http.js';
import type { RunWatch } from './stop.js';
import { createStateWatch } from './state.js';
import { createTransport, DeadlinePassed, MAX_RESPONSE_BYTES, NoAnswer } from './transport.js';
import type { CheckResult, ConformanceOptions, Credentials, RequestRecord, ResponseRecord, Skipped, StageName } from './types.js';

/** The kinds of objects with a status, named as in the contract's lifecycle tables. */
export type ObjectKind = 'payment' | 'payout' | 'appeal';

/** One status of one object, as an answer of the API showed it. */
export interface SeenStatus {
  status: string;
  /** performance.now() when first seen. */
  at: number;
}

/** An exchange as the report shows it: the request, the response and a curl line, credentials masked. */
export interface Evidence {
  request?: RequestRecord;
  response?: ResponseRecord;
  curl?: string;
}

/** A check's outcome on one subject, with the contract rule it enforces. */
export interface Outcome {
  check: string;
  ok: boolean;
  rule: string;
  detail?: string;
}

/** An answer, with what the report shows of its exchange. */
export type Exchanged = Answer & { evidence: Evidence };

/** A stage: `prepare` runs before any stage and `dispose` after all (even on failure), so a stage sees what others cause. */
export interface Stage {
  prepare?(session: Session): Promise<void>;
  run(session: Session): Promise<void>;
  dispose?(session: Session): Promise<void>;
}

export interface Session {
  variant: Variant;
  baseUrl: string;
  credentials: Credentials;
  seed: number;
  requests: number;
  /** The options as given (webhook settings, sandbox mode, fetch). */
  options: ConformanceOptions;
  /** The run's deadline and the count of requests in a row without an answer. */
  watch: RunWatch;
  /** The sandbox's control client when `sandbox` is on; otherwise undefined. */
  control: SandboxControlClient | undefined;
  /** Sends `draft` and judges the answer by the contract as a request of `kind`; undefined when no answer came. */
  exchange(stage: StageName, operation: OperationSpec, kind: RequestKind, draft: Draft): Promise<Exchanged | undefined>;
  /**
   * Sends the operation named `operationId` as a request that fits the contract: `id` in its path, a fresh
   * Idempotency-Key where it takes one (or `key`), `body` and `query`; then as `exchange` does.
   */
  call(stage: StageName, operationId: string, options?: { id?: string; body?: unknown; query?: [string, string][]; key?: string }): Promise<Exchanged | undefined>;
  /** Records one check's outcome on `subject`; the first failure keeps its detail and evidence. */
  record(stage: StageName, subject: string, outcome: Outcome, evidence?: Evidence): void;
  /** Notes what the stage could not check on this server and why; the report lists it. */
  skip(stage: StageName, subject: string, reason: string): void;
  skipped(): Skipped[];
  /** What showed that the server keeps no state (state.ts), once an answer did; undefined until then. */
  stateless(): string | undefined;
  /** Every status each object was seen in through the API, in the order seen, keyed by `${kind}:${id}`. */
  statuses: Map<string, { kind: ObjectKind; id: string; seen: SeenStatus[] }>;
  /** Counts requests sent by something else for the stage (Respect's, in the flows stage). */
  countSent(requests: number): void;
  /** Tells onProgress what the stage is on. */
  progress(stage: StageName, subject: string): void;
  results(): CheckResult[];
  sent(): number;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const KINDS: Record<string, ObjectKind> = { payments: 'payment', payouts: 'payout', appeals: 'appeal' };

/** The object with an id and a status in an answer, wherever the variant puts it: top level or one object down. */
export function objectOf(json: unknown): { id: string; status: string } | undefined {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const candidates = [json, ...Object.values(json as Record<string, unknown>)];
  for (const candidate of candidates) {
    if (!candidate || typeof candidate !== 'object' || Array.isArray(candidate)) continue;
    const { id, status } = candidate as { id?: unknown; status?: unknown };
    if (typeof id === 'string' && typeof status === 'string') return { id, status };
  }
  return undefined;
}

/** The session of one run; `watch` holds its deadline. */
export function createSession(options: ConformanceOptions & { credentials: Credentials; seed: number; requests: number; watch: RunWatch }): Session {
  const { variant, baseUrl, credentials, seed, requests, timeoutMs = 10_000, onProgress, watch } = options;
  const { deadline } = watch;
  const given = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const transport = createTransport({ fetch: options.fetch, timeoutMs, maxResponseBytes: options.maxResponseBytes ?? MAX_RESPONSE_BYTES, deadline });
  // Note: the control client keeps the clients' own redirect rule and size cap; the deadline ends its requests too.
  const send = (request: Request) => (deadline.aborted ? Promise.reject(deadline.reason) : given(new Request(request, { signal: AbortSignal.any([request.signal, deadline]) })));
  const checks = new Map<string, CheckResult>();
  const statuses: Session['statuses'] = new Map();
  const skipped: Skipped[] = [];
  const state = createStateWatch();
  let sent = 0;
  let failed = 0;
  let stageFailed = false;

  const record: Session['record'] = (stage, subject, outcome, evidence) => {
    const key = `${stage}\u0000${subject}\u0000${outcome.check}`;
    const result = checks.get(key) ?? { stage, check: outcome.check, operation: subject, ok: true, rule: outcome.rule, judged: 0, failures: 0 };
    result.judged += 1;
    if (!outcome.ok) {
      stageFailed = true;
      result.failures += 1;
      if (result.ok) {
        result.ok = false;
        if (outcome.detail) result.detail = maskSecrets(outcome.detail, credentials);
        if (evidence?.request) result.request = evidence.request;
        if (evidence?.response) result.response = evidence.response;
        if (evidence?.curl) result.curl = evidence.curl;
      }
    }
    checks.set(key, result);
  };

  /** Notes the status of the object an answer shows (a create, retrieve or action on one object). */
  const observe = (operation: OperationSpec, answer: Answer) => {
    if (answer.status < 200 || answer.status >= 300) return;
    const kind = KINDS[operation.path.split('/').find((segment) => segment in KINDS) ?? ''];
    const object = objectOf(answer.json);
    if (!kind || !object) return;
    const key = `${kind}:${object.id}`;
    const entry = statuses.get(key) ?? { kind, id: object.id, seen: [] };
    if (entry.seen.at(-1)?.status !== object.status) entry.seen.push({ status: object.status, at: performance.now() });
    statuses.set(key, entry);
  };

  // Note: no retries: a control call that fails is a fault of the server under test, reported, not hidden.
  const control = options.sandbox ? createSandboxControlClient({
        baseUrl,
        ...('accessToken' in credentials ? { accessToken: credentials.accessToken } : { publicKey: credentials.publicKey, secretKey: credentials.secretKey }),
        fetch: send,
        timeoutMs,
        retry: false,
      }) : undefined;

  const operations = new Map(operationsOf(variant).map((operation) => [operation.operationId, operation]));
  const exchange: Session['exchange'] = async (stage, operation, kind, draft) => {
    const withCredentials = kind !== 'unauthenticated';
    watch.check();
    const outgoing = outgoingOf(baseUrl, draft, withCredentials ? credentials : undefined);
    const requestRecord = recordOf(baseUrl, draft, credentials, withCredentials);
    let answer: (Answer & { unfollowed?: string }) | undefined;
    let error: string | undefined;
    let answered = true;
    try {
      const received = await transport(outgoing);
      answer = { ...received, json: parse(received.text) };
    } catch (caught) {
      if (caught instanceof DeadlinePassed) watch.check(); // Note: throws StageStopped, the deadline having passed.
      if (!(caught instanceof NoAnswer)) throw caught;
      error = caught.message;
      answered = caught.answered;
    }
    sent += 1;
    const evidence: Evidence = {
      request: requestRecord,
      response: answer ? responseRecordOf(answer.status, answer.headers.get('content-type'), answer.text, credentials) : undefined,
      curl: curlOf(requestRecord),
    };
    const verdicts: Verdict[] = answer ? judge(variant, operation, kind, answer) : [{ check: 'request_completed', ok: false, detail: `no answer: ${error}` }];
    // Note: a redirect not followed is judged as the answer it is; each failure it causes says why it was not followed.
    const unfollowed = answer?.unfollowed;
    if (unfollowed) for (const verdict of verdicts) if (!verdict.ok) verdict.detail = `${verdict.detail ? `${verdict.detail}; ` : ''}${unfollowed}`;
    for (const verdict of verdicts) record(stage, operation.operationId, { ...verdict, rule: RULES[verdict.check] }, evidence);
    if (verdicts.some((verdict) => !verdict.ok)) failed += 1;
    stageFailed = false;
    if (answer && withCredentials) observe(operation, answer);
    if (answer && kind === 'valid') state.observe(operation, draft, answer, objectOf(answer.json));
    onProgress?.({ stage, operation: operation.operationId, sent, failed });
    watch.note(answer !== undefined || answered, error);
    return answer ? { ...answer, evidence } : undefined;
  };

  return {
    variant,
    baseUrl,
    credentials,
    seed,
    requests,
    options,
    watch,
    control,
    statuses,
    record,
    skip: (stage, subject, reason) => void skipped.push({ stage, subject, reason }),
    skipped: () => [...skipped],
    stateless: () => {
      const sign = state.sign();
      return sign === undefined ? undefined : maskSecrets(sign, credentials);
    },
    sent: () => sent,
    countSent: (requests) => void (sent += requests),
    results: () => [...checks.values()],
    progress(stage, subject) {
      if (stageFailed) failed += 1;
      stageFailed = false;
      onProgress?.({ stage, operation: subject, sent, failed });
    },
    call(stage, operationId, { id, body, query = [], key } = {}) {
      const operation = operations.get(operationId);
      if (!operation) throw new Error(`Variant ${variant.toUpperCase()} has no operation ${operationId}`);
      const draft: Draft = { method: operation.method, path: operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(id ?? '')), query, headers: {} };
      // Note: a fresh key per request: a fixed one would replay an earlier run's answer for up to 24 hours.
      if (operation.parameters.some((parameter) => parameter.name === 'Idempotency-Key')) draft.headers['Idempotency-Key'] = key ?? randomUUID();
      if (body !== undefined) draft.body = body;
      return exchange(stage, operation, 'valid', draft);
    },
    exchange,
  };
}
