// The checks collected during a run, one entry per stage, subject and check, holding the first failure's detail and
// evidence; and what each stage could not check, with why. Rules come from the registry.
import { CHECKS, type CheckName, type StepCheck } from './registry.js';
import type { CheckResult, RequestRecord, ResponseRecord, Skipped, StageName } from './types.js';

/** An exchange as the report shows it: the request, the response and a curl line, credentials masked. */
export interface Evidence {
  request?: RequestRecord;
  response?: ResponseRecord;
  curl?: string;
}

/** A check's outcome on one subject; a flows step brings its own rule, every other check has the registry's. */
export type Outcome =
  { check: CheckName; ok: boolean; detail?: string } | { check: StepCheck; ok: boolean; detail?: string; rule: string };

/** Records one check's outcome on `subject` for a stage; the first failure keeps its detail and evidence. */
export type Recorder = (subject: string, outcome: Outcome, evidence?: Evidence) => void;
/** Notes what a stage could not check on this server and why; the report lists it. */
export type Skipper = (subject: string, reason: string) => void;

/** The collection of one run; `mask` takes the credentials out of every detail. */
export function createResults(mask: (text: string) => string) {
  const checks = new Map<string, CheckResult>();
  const skipped: Skipped[] = [];
  const key = (stage: StageName, subject: string, check: string) => `${stage}\u0000${subject}\u0000${check}`;
  return {
    record:
      (stage: StageName): Recorder =>
      (subject, outcome, evidence) => {
        const id = key(stage, subject, outcome.check);
        const rule = 'rule' in outcome ? outcome.rule : CHECKS[outcome.check].rule;
        const result = checks.get(id) ?? {
          stage,
          check: outcome.check,
          operation: subject,
          ok: true,
          rule,
          judged: 0,
          failures: 0,
        };
        checks.set(id, result);
        result.judged += 1;
        if (outcome.ok) return;
        result.failures += 1;
        if (!result.ok) return;
        result.ok = false;
        if (outcome.detail) result.detail = mask(outcome.detail);
        if (evidence?.request) result.request = evidence.request;
        if (evidence?.response) result.response = evidence.response;
        if (evidence?.curl) result.curl = evidence.curl;
      },
    skip:
      (stage: StageName): Skipper =>
      (subject, reason) =>
        void skipped.push({ stage, subject, reason }),
    /** Adds `text` to the detail of a check that failed. */
    annotate: (stage: StageName) => (subject: string, check: string, text: string) => {
      const result = checks.get(key(stage, subject, check));
      if (result && !result.ok) result.detail = mask(result.detail ? `${result.detail}; ${text}` : text);
    },
    checks: (): CheckResult[] => [...checks.values()],
    skipped: (): Skipped[] => [...skipped],
  };
}
export type Results = ReturnType<typeof createResults>;
