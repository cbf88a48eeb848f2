// Sending one request of a stage (with or without the credentials), judging its answer by the contract (checks.ts) and
// recording each verdict: what a stage's `send` and `call` do.
import { randomUUID } from 'node:crypto';
import {
  operationsOf,
  type OperationSpec,
  type Variant,
} from '@merchant-payments/contract/internal/validation/index.js';
import { judge, type Answer, type RequestKind, type Verdict } from './checks.js';
import { curlOf, outgoingOf, recordOf, responseRecordOf, type Draft } from './http.js';
import type { CheckName } from './registry.js';
import type { Evidence, Recorder } from './results.js';
import type { RunWatch } from './stop.js';
import { DeadlinePassed, NoAnswer, type Outgoing, type Received } from './transport.js';
import type { Credentials } from './types.js';

/** An answer, with what the report shows of its exchange and the checks it failed. */
export type Exchanged = Answer & { evidence: Evidence; failed: CheckName[] };

/** Sends `draft` and judges the answer by the contract as a request of `kind`; undefined when no answer came. */
export type Send = (operation: OperationSpec, kind: RequestKind, draft: Draft) => Promise<Exchanged | undefined>;

/**
 * Sends the operation named `operationId` as a request that fits the contract: `id` in its path, a fresh
 * Idempotency-Key where it takes one (or `key`), `body` and `query`; then as `Send` does.
 */
export type Call = (
  operationId: string,
  options?: { id?: string; body?: unknown; query?: [string, string][]; key?: string },
) => Promise<Exchanged | undefined>;

export interface ExchangeOptions {
  variant: Variant;
  baseUrl: string;
  credentials: Credentials;
  transport: (outgoing: Outgoing) => Promise<Received>;
  watch: RunWatch;
  /** Called with every answer, after its verdicts were recorded. */
  onAnswer?: (operation: OperationSpec, kind: RequestKind, draft: Draft, answer: Answer) => void;
  /** Called after every request, answered or not. */
  onSent?: (operationId: string) => void;
}

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** A stage's `send`, which records with `record`. */
export function sendOf(options: ExchangeOptions, record: Recorder): Send {
  const { variant, baseUrl, credentials, transport, watch } = options;
  return async (operation, kind, draft) => {
    const withCredentials = kind !== 'unauthenticated';
    watch.check();
    const requestRecord = recordOf(baseUrl, draft, credentials, withCredentials);
    let received: Received | undefined;
    let error: string | undefined;
    let answered = true;
    try {
      received = await transport(outgoingOf(baseUrl, draft, withCredentials ? credentials : undefined));
    } catch (caught) {
      if (caught instanceof DeadlinePassed) watch.check(); // Note: throws StageStopped, the deadline having passed.
      if (!(caught instanceof NoAnswer)) throw caught;
      error = caught.message;
      answered = caught.answered;
    }
    const answer = received && {
      status: received.status,
      headers: received.headers,
      text: received.text,
      json: parse(received.text),
    };
    const evidence: Evidence = {
      request: requestRecord,
      response: answer
        ? responseRecordOf(answer.status, answer.headers.get('content-type'), answer.text, credentials)
        : undefined,
      curl: curlOf(requestRecord),
    };
    const verdicts: Verdict[] = answer
      ? judge(variant, operation, kind, answer)
      : [{ check: 'request_completed', ok: false, detail: `no answer: ${error}` }];
    // Note: a redirect not followed is judged as the answer it is; each failure it causes says why it was not followed.
    const unfollowed = received?.unfollowed;
    if (unfollowed)
      for (const verdict of verdicts)
        if (!verdict.ok) verdict.detail = `${verdict.detail ? `${verdict.detail}; ` : ''}${unfollowed}`;
    for (const verdict of verdicts) record(operation.operationId, verdict, evidence);
    if (answer) options.onAnswer?.(operation, kind, draft, answer);
    options.onSent?.(operation.operationId);
    watch.note(answer !== undefined || answered, error);
    return (
      answer && {
        ...answer,
        evidence,
        failed: verdicts.filter((verdict) => !verdict.ok).map((verdict) => verdict.check),
      }
    );
  };
}

/** A stage's `call`: operations by id, sent through `send` as requests that fit the contract. */
export function callOf(variant: Variant, send: Send): Call {
  const operations = new Map(operationsOf(variant).map((operation) => [operation.operationId, operation]));
  return (operationId, { id, body, query = [], key } = {}) => {
    const operation = operations.get(operationId);
    if (!operation) throw new Error(`Variant ${variant.toUpperCase()} has no operation ${operationId}`);
    const draft: Draft = {
      method: operation.method,
      path: operation.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(id ?? '')),
      query,
      headers: {},
    };
    // Note: a fresh key per request: a fixed one would replay an earlier run's answer for up to 24 hours.
    if (operation.parameters.some((parameter) => parameter.name === 'Idempotency-Key'))
      draft.headers['Idempotency-Key'] = key ?? randomUUID();
    if (body !== undefined) draft.body = body;
    return send(operation, 'valid', draft);
  };
}
