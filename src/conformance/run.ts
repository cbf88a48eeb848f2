// runConformance: checks a server of one variant against the contract, stage by stage, and returns the report.
import { MAX_TIMER_MS } from '../shared/timers.js';
import type { Variant } from '../validation/index.js';
import { checkBaseUrl } from './base-url.js';
import { ConformanceUsageError } from './errors.js';
import { ENV } from './http.js';
import { flowsStage } from './flows.js';
import { fuzzStage } from './fuzz.js';
import { invariantsStage } from './invariants.js';
import { RULES } from './checks.js';
import { createSession, type Session, type Stage } from './session.js';
import { createWatch, DEFAULT_DEADLINE_MS, StageStopped } from './stop.js';
import { webhooksStage } from './webhooks.js';
import { STAGES, type ConformanceOptions, type ConformanceReport, type Credentials, type StageName } from './types.js';

/** The stages by name; `--only` and `options.only` choose among these. */
const stages: Record<StageName, Stage> = { flows: flowsStage, fuzz: fuzzStage, invariants: invariantsStage, webhooks: webhooksStage };

export { ConformanceUsageError };

/** The variant's credentials from the environment; throws naming the variables (never their values) when unset. */
export function credentialsFromEnv(variant: Variant, env: NodeJS.ProcessEnv = process.env): Credentials {
  if (variant === 'a') {
    const accessToken = env[ENV.accessToken];
    if (!accessToken) throw new ConformanceUsageError(`Variant A needs ${ENV.accessToken} set in the environment`);
    return { accessToken };
  }
  const publicKey = env[ENV.publicKey];
  const secretKey = env[ENV.secretKey];
  if (!publicKey || !secretKey) throw new ConformanceUsageError(`Variant B needs ${ENV.publicKey} and ${ENV.secretKey} set in the environment`);
  return { publicKey, secretKey };
}

/** The stage names in `names`, in run order; throws on a name that is not a stage. */
export function selectStages(names: readonly string[]): StageName[] {
  const unknown = names.filter((name) => !(STAGES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new ConformanceUsageError(`unknown stage ${unknown.map((name) => `"${name}"`).join(', ')}; the stages are ${STAGES.join(', ')}`);
  return STAGES.filter((stage) => names.includes(stage));
}

/** Runs one stage; a stage stopped early (or not started, the deadline having passed) fails `stage_completed`, recorded only then, as `respect report` is. */
async function runStage(session: Session, name: StageName, stage: Stage): Promise<void> {
  const stopped = (detail: string) => session.record(name, 'run', { check: 'stage_completed', ok: false, rule: RULES.stage_completed, detail });
  if (session.watch.deadline.aborted) return stopped(`not run: the run's deadline of ${session.watch.deadlineMs / 1000} s (--deadline) had passed`);
  session.watch.reset();
  try {
    await stage.run(session);
  } catch (error) {
    if (!(error instanceof StageStopped)) throw error;
    stopped(error.message);
  }
}

/** Checks a server of one variant against the contract, stage by stage, and returns the report. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  if (options.variant !== 'a' && options.variant !== 'b') throw new ConformanceUsageError(`variant must be "a" or "b", got "${String(options.variant)}"`);
  let baseUrl: URL;
  try {
    baseUrl = new URL(options.baseUrl);
  } catch {
    throw new ConformanceUsageError(`base URL "${options.baseUrl}" is not a URL`);
  }
  if (baseUrl.protocol !== 'http:' && baseUrl.protocol !== 'https:') throw new ConformanceUsageError('the base URL must be http or https');
  const seed = options.seed ?? 1;
  const requests = options.requests ?? 20;
  if (!Number.isSafeInteger(seed)) throw new ConformanceUsageError('the seed must be an integer');
  if (!Number.isSafeInteger(requests) || requests < 1 || requests > 10_000) throw new ConformanceUsageError('requests must be an integer from 1 to 10000');
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  if (!Number.isSafeInteger(deadlineMs) || deadlineMs < 1 || deadlineMs > MAX_TIMER_MS) throw new ConformanceUsageError(`the deadline must be from 1 ms to ${MAX_TIMER_MS} ms`);
  checkBaseUrl(options.variant, options.baseUrl);
  const chosen = selectStages(options.only ?? STAGES);
  const credentials = options.credentials ?? credentialsFromEnv(options.variant);
  const started = performance.now();
  const watch = createWatch(deadlineMs);
  const session = createSession({ ...options, baseUrl: options.baseUrl.replace(/\/+$/, ''), credentials, seed, requests, watch });
  const picked = chosen.map((name) => [name, stages[name]] as const);
  try {
    for (const [, stage] of picked) await stage.prepare?.(session);
    for (const [name, stage] of picked) await runStage(session, name, stage);
  } finally {
    for (const [, stage] of picked) await stage.dispose?.(session);
  }
  const checks = session.results();
  const stateless = session.stateless();
  return {
    variant: options.variant,
    baseUrl: options.baseUrl,
    seed,
    passed: checks.every((check) => check.ok),
    requests: session.sent(),
    durationMs: Math.round(performance.now() - started),
    checks,
    skipped: session.skipped(),
    ...(stateless === undefined ? {} : { stateless }),
  };
}
