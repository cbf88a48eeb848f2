// runConformance: checks a server of one variant against the contract, stage by stage, and returns the report. Each
// stage is given what it uses: `send` or `call` for its requests, `record` and `skip` for its results.
import { createSandboxControlClient } from '@merchant-payments/contract/internal/sandbox-control/client.js';
import { MAX_TIMER_MS } from '@merchant-payments/contract/internal/shared/timers.js';
import { operationsOf, type Variant } from '@merchant-payments/contract/internal/validation/index.js';
import { checkBaseUrl } from './base-url.js';
import { objectOf } from './checks.js';
import { ConformanceUsageError } from './errors.js';
import { callOf, sendOf, type ExchangeOptions } from './exchange.js';
import { flows } from './flows.js';
import { fuzz } from './fuzz.js';
import { curlOf, ENV, maskSecrets, recordOf, type Draft } from './http.js';
import { invariants } from './invariants.js';
import { createResults } from './results.js';
import { createStateWatch } from './state.js';
import { keptWhenStateless, statelessSkips, statelessStages } from './stateless.js';
import { createWatch, DEFAULT_DEADLINE_MS, StageStopped, type RunWatch } from './stop.js';
import { createTransport, MAX_RESPONSE_BYTES } from './transport.js';
import { STAGES, type ConformanceOptions, type ConformanceReport, type Credentials, type StageName } from './types.js';
import { openTestTenancy } from './tenancy.js';
import { openWebhooks, statusLog } from './webhooks.js';

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
  if (!publicKey || !secretKey)
    throw new ConformanceUsageError(`Variant B needs ${ENV.publicKey} and ${ENV.secretKey} set in the environment`);
  return { publicKey, secretKey };
}

/** The stage names in `names`, in run order; throws on a name that is not a stage. */
export function selectStages(names: readonly string[]): StageName[] {
  const unknown = names.filter((name) => !(STAGES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new ConformanceUsageError(
      `unknown stage ${unknown.map((name) => `"${name}"`).join(', ')}; the stages are ${STAGES.join(', ')}`,
    );
  return STAGES.filter((stage) => names.includes(stage));
}

/** The options checked, with their defaults. */
function settle(options: ConformanceOptions) {
  if (options.variant !== 'a' && options.variant !== 'b')
    throw new ConformanceUsageError(`variant must be "a" or "b", got "${String(options.variant)}"`);
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new ConformanceUsageError(`base URL "${options.baseUrl}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConformanceUsageError('the base URL must be http or https');
  const { seed = 1, requests = 20, deadlineMs = DEFAULT_DEADLINE_MS, timeoutMs = 10_000 } = options;
  if (!Number.isSafeInteger(seed)) throw new ConformanceUsageError('the seed must be an integer');
  if (!Number.isSafeInteger(requests) || requests < 1 || requests > 10_000)
    throw new ConformanceUsageError('requests must be an integer from 1 to 10000');
  if (!Number.isSafeInteger(deadlineMs) || deadlineMs < 1 || deadlineMs > MAX_TIMER_MS)
    throw new ConformanceUsageError(`the deadline must be from 1 ms to ${MAX_TIMER_MS} ms`);
  checkBaseUrl(options.variant, options.baseUrl);
  const stateless = options.stateless ?? false;
  if (stateless && options.sandbox)
    throw new ConformanceUsageError(
      'stateless and sandbox contradict each other: the sandbox keeps state, and with sandbox the kit judges all of it; pass one of them',
    );
  const selected = selectStages(options.only ?? STAGES);
  const stages = stateless ? statelessStages(selected) : selected;
  if (stages.length === 0)
    throw new ConformanceUsageError(
      `stateless runs none of the stages chosen (${selected.join(', ')}): a server that keeps no state sends no webhooks`,
    );
  const credentials = options.credentials ?? credentialsFromEnv(options.variant);
  return {
    variant: options.variant,
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    seed,
    requests,
    deadlineMs,
    timeoutMs,
    stages,
    stateless,
    skippedStages: stateless ? statelessSkips(selected) : [],
    credentials,
  };
}

/** Runs one stage; a stage stopped early (or not started, the deadline having passed) fails `stage_completed`, recorded only then, as `respect report` is. */
async function runStage(watch: RunWatch, stopped: (detail: string) => void, run: () => Promise<void>): Promise<void> {
  if (watch.deadline.aborted)
    return stopped(`not run: the run's deadline of ${watch.deadlineMs / 1000} s (--deadline) had passed`);
  watch.reset();
  try {
    await run();
  } catch (error) {
    if (!(error instanceof StageStopped)) throw error;
    stopped(error.message);
  }
}

/** Checks a server of one variant against the contract, stage by stage, and returns the report. */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const settled = settle(options);
  const { variant, baseUrl, seed, requests, deadlineMs, timeoutMs, stages, stateless, credentials: given } = settled;
  const started = performance.now();
  const watch = createWatch(deadlineMs);
  const fetchOf = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  // Note: the control client keeps the clients' own redirect rule and size cap; the deadline ends its requests too. No
  // retries: a control call that fails is a fault of the server under test, reported, not hidden.
  const controlOf = (credentials: Credentials) =>
    createSandboxControlClient({
      baseUrl,
      ...('accessToken' in credentials
        ? { accessToken: credentials.accessToken }
        : { publicKey: credentials.publicKey, secretKey: credentials.secretKey }),
      fetch: (request) =>
        watch.deadline.aborted
          ? Promise.reject(watch.deadline.reason)
          : fetchOf(new Request(request, { signal: AbortSignal.any([request.signal, watch.deadline]) })),
      timeoutMs,
      retry: false,
    });
  const parent = options.sandbox ? controlOf(given) : undefined;
  const tenancy = parent && (await openTestTenancy(parent, !('accessToken' in given)));
  const testTenant = tenancy && 'id' in tenancy ? tenancy : undefined;
  const credentials = testTenant?.credentials ?? given;
  const control = testTenant ? controlOf(credentials) : parent;
  const results = createResults((text) => maskSecrets(maskSecrets(text, given), credentials));
  const state = createStateWatch();
  const statuses = statusLog();
  let sent = 0;
  const progress = (stage: StageName) => (subject: string) =>
    options.onProgress?.({
      stage,
      operation: subject,
      sent,
      failed: results.checks().filter((check) => !check.ok).length,
    });
  const exchange = (stage: StageName): ExchangeOptions => ({
    variant,
    baseUrl,
    credentials,
    transport: createTransport({
      fetch: options.fetch,
      timeoutMs,
      maxResponseBytes: options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
      deadline: watch.deadline,
    }),
    watch,
    onAnswer(operation, kind, draft, answer) {
      if (kind !== 'unauthenticated') statuses.observe(operation, answer);
      if (kind === 'valid') state.observe(operation, draft, answer, objectOf(answer.json));
    },
    onSent(operationId) {
      sent += 1;
      progress(stage)(operationId);
    },
  });
  const send = (stage: StageName) => sendOf(exchange(stage), results.record(stage));
  const call = (stage: StageName) => callOf(variant, send(stage));
  const evidence = (draft: Draft) => {
    const request = recordOf(baseUrl, draft, credentials, true);
    return { request, curl: curlOf(request) };
  };
  // Note: in a stateless run, what the invariants stage leaves unchecked (transitions, lists, the balance) belongs to
  // checks that need state, which statelessSkips names one by one instead.
  const tools = (stage: StageName) => ({
    variant,
    record: results.record(stage),
    skip: stateless && stage === 'invariants' ? () => {} : results.skip(stage),
    progress: progress(stage),
  });

  // Note: the webhooks stage listens from the start, so that it sees the deliveries every stage causes.
  const webhooks = stages.includes('webhooks')
    ? await openWebhooks({
        ...tools('webhooks'),
        call: call('webhooks'),
        control,
        changes: statuses.changes,
        webhookSecret: options.webhookSecret,
        webhookPort: options.webhookPort,
        webhookWaitMs: options.webhookWaitMs,
      })
    : undefined;
  const runs: Record<StageName, () => Promise<void>> = {
    flows: () =>
      flows({
        ...tools('flows'),
        baseUrl,
        credentials,
        sandbox: control !== undefined,
        stateless,
        timeoutMs,
        watch,
        countSent: (count) => void (sent += count),
      }),
    fuzz: () => fuzz({ variant, seed, requests, send: send('fuzz') }),
    invariants: () =>
      invariants({
        ...tools('invariants'),
        seed,
        budget: requests * operationsOf(variant).length,
        call: call('invariants'),
        control,
        evidence,
        annotate: results.annotate('invariants'),
      }),
    webhooks: async () => webhooks?.run(),
  };
  try {
    for (const stage of stages)
      await runStage(
        watch,
        (detail) => results.record(stage)('run', { check: 'stage_completed', ok: false, detail }),
        runs[stage],
      );
  } finally {
    await webhooks?.close();
    await testTenant?.remove();
  }
  const checks = results.checks().filter((check) => !stateless || keptWhenStateless(check));
  const sign = state.sign();
  return {
    variant,
    baseUrl: options.baseUrl,
    seed,
    passed: checks.every((check) => check.ok),
    requests: sent,
    durationMs: Math.round(performance.now() - started),
    checks,
    skipped: [...settled.skippedStages, ...results.skipped()],
    tenant: testTenant
      ? { kind: 'test', id: testTenant.id }
      : { kind: 'given', ...(tenancy && 'reason' in tenancy ? { noTestTenant: tenancy.reason } : {}) },
    ...(sign === undefined ? {} : { stateless: maskSecrets(sign, credentials) }),
    ...(stateless ? { statelessOnly: true as const } : {}),
  };
}
