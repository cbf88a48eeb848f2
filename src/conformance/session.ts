// What a stage works with: sending a request (with or without the credentials), and the checks collected so far,
// one entry per stage, operation and check, holding the first failing request.
import type { OperationSpec, Variant } from '../validation/index.js';
import { judge, RULES, type Answer, type RequestKind } from './checks.js';
import { curlOf, maskSecrets, recordOf, responseRecordOf, toRequest, type Draft } from './http.js';
import type { CheckResult, ConformanceOptions, Credentials, StageName } from './types.js';

export interface Session {
  variant: Variant;
  seed: number;
  requests: number;
  /** Sends `draft` and judges the answer as a request of `kind`; undefined when no answer came. */
  exchange(stage: StageName, operation: OperationSpec, kind: RequestKind, draft: Draft): Promise<Answer | undefined>;
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

export function createSession(options: ConformanceOptions & { credentials: Credentials; seed: number; requests: number }): Session {
  const { variant, baseUrl, credentials, seed, requests, timeoutMs = 10_000, onProgress } = options;
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const checks = new Map<string, CheckResult>();
  let sent = 0;
  let failed = 0;

  return {
    variant,
    seed,
    requests,
    sent: () => sent,
    results: () => [...checks.values()],
    async exchange(stage, operation, kind, draft) {
      const withCredentials = kind !== 'unauthenticated';
      const request = toRequest(baseUrl, draft, withCredentials ? credentials : undefined, AbortSignal.timeout(timeoutMs));
      const record = recordOf(baseUrl, draft, credentials, withCredentials);
      let answer: Answer | undefined;
      let error: string | undefined;
      try {
        const response = await send(request);
        const text = await response.text();
        answer = { status: response.status, headers: response.headers, text, json: parse(text) };
      } catch (caught) {
        error = (caught as Error).message;
      }
      sent += 1;
      const verdicts = answer ? judge(variant, operation, kind, answer) : [{ check: 'request_completed' as const, ok: false, detail: `no answer: ${error}` }];
      for (const verdict of verdicts) {
        const key = `${stage}\u0000${operation.operationId}\u0000${verdict.check}`;
        const result = checks.get(key) ?? { stage, check: verdict.check, operation: operation.operationId, ok: true, rule: RULES[verdict.check], judged: 0, failures: 0 };
        result.judged += 1;
        if (!verdict.ok) {
          result.failures += 1;
          if (result.ok) {
            result.ok = false;
            if (verdict.detail) result.detail = maskSecrets(verdict.detail, credentials);
            result.request = record;
            if (answer) result.response = responseRecordOf(answer.status, answer.headers.get('content-type'), answer.text, credentials);
            result.curl = curlOf(record);
          }
        }
        checks.set(key, result);
      }
      if (verdicts.some((verdict) => !verdict.ok)) failed += 1;
      onProgress?.({ stage, operation: operation.operationId, sent, failed });
      return answer;
    },
  };
}
