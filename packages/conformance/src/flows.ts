// The flows stage: the shipped Arazzo workflows (packages/contract/openapi/arazzo/variant-<a|b>.arazzo.yaml) run by Redocly Respect
// against the server, and Respect's JSON report turned into one check per step. Respect runs as a child process of
// this Node, started asynchronously: the server may be a sandbox answering from this very process.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { parse } from 'yaml';
import type { Variant } from '@merchant-payments/contract/internal/validation/index.js';
import { ENV, curlOf, excerptOf, maskSecrets, responseRecordOf } from './http.js';
import type { Evidence, Recorder, Skipper } from './results.js';
import { contractFile, packageFile } from './schemas.js';
import { STATELESS_WORKFLOWS, workflowNeedsState } from './stateless.js';
import type { RunWatch } from './stop.js';
import { WHOLE_STAGE, type Credentials, type RequestRecord } from './types.js';

/**
 * How long one Respect run may take (Respect's own --execution-timeout). Respect checks it only between steps, so it
 * cannot end a request that hangs: the child is stopped if it still runs 15 s later.
 */
const RUN_LIMIT_MS = 300_000;
const KILL_AFTER_MS = RUN_LIMIT_MS + 15_000;

/** The bounds of one Respect run, in milliseconds. */
export interface FlowsLimits {
  /** Respect's own limit; the workflows not finished by then fail with a check that says so. */
  runMs: number;
  /** When the child is stopped if it is still running; no report is read then. */
  killAfterMs: number;
}
/** Characters of Respect's output kept, to show when it wrote no report. */
const OUTPUT_KEPT = 16_384;
/** The largest JSON report read (it holds every response body). */
const REPORT_MAX_BYTES = 64 * 1024 * 1024;
/** The source description of the sandbox's control API in the workflow files. */
const SANDBOX_SOURCE = 'sandbox';
/** The credential inputs the workflow files declare: Variant A's token, Variant B's key pair. */
const inputsOf = (credentials: Credentials): Record<string, string> =>
  'accessToken' in credentials
    ? { access_token: credentials.accessToken }
    : { public_key: credentials.publicKey, secret_key: credentials.secretKey };
/** The preload that keeps Respect's connections, redirects included, to the origin of --base-url. */
const GUARD = new URL('./respect-guard.js', import.meta.url).href;
/** The proxy variables Respect would honour: a proxy is another host, and the kit's own requests use none. */
const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy'];
/** Keeps Respect from calling home or announcing updates. */
const QUIET_ENV = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  SCARF_ANALYTICS: 'false',
  DO_NOT_TRACK: '1',
  NO_UPDATE_NOTIFIER: '1',
  NO_COLOR: '1',
};
/** What Respect writes in place of an input marked `format: password`, and the variable each header's value comes from. */
const MASK = '********';
const MASKED_HEADERS: Record<string, string> = {
  authorization: ENV.accessToken,
  'x-public-key': ENV.publicKey,
  'x-secret-key': ENV.secretKey,
};

/** The parts of Respect's `-J` report read here. */
interface RespectCheck {
  name?: string;
  passed?: boolean;
  message?: unknown;
  condition?: string;
  severity?: string;
}
interface RespectStep {
  type?: string;
  stepId?: string;
  status?: string;
  request?: { method?: string; url?: string; headers?: Record<string, string>; body?: unknown };
  response?: { statusCode?: number; headers?: Record<string, string>; body?: unknown };
  checks?: RespectCheck[];
  executedSteps?: RespectStep[];
}
interface RespectWorkflow {
  workflowId?: string;
  status?: string;
  globalTimeoutError?: boolean;
  totalRequests?: number;
  executedSteps?: RespectStep[];
}
interface RespectReport {
  files?: Record<string, { executedWorkflows?: RespectWorkflow[] }>;
}

/** A workflow as the Arazzo file declares it: its steps, what each asserts, and the control API calls it makes. */
interface DeclaredWorkflow {
  workflowId: string;
  /** What the workflow checks: its summary and description. */
  about: string;
  steps: { stepId: string; rule: string }[];
  sandboxCalls: string[];
}

/** What the stage is given: the server, whether it has the control API, its records, the run's watch. */
export interface FlowsOptions {
  variant: Variant;
  baseUrl: string;
  credentials: Credentials;
  sandbox: boolean;
  /** Run only the workflows a server without state can pass (STATELESS_WORKFLOWS); the others are skipped. */
  stateless?: boolean;
  timeoutMs: number;
  watch: RunWatch;
  record: Recorder;
  skip: Skipper;
  progress: (subject: string) => void;
  /** Counts the requests Respect sent. */
  countSent: (requests: number) => void;
  limits?: FlowsLimits;
  /** Finds a module's file, as require.resolve does from this package: @redocly/cli is an optional peer dependency. */
  resolve?: (specifier: string) => string;
}

/**
 * The JavaScript file behind @redocly/cli's `redocly` bin, from its package.json (not PATH, which may hold another);
 * undefined when @redocly/cli is not installed.
 */
function respectBin(resolve: (specifier: string) => string): string | undefined {
  let manifestPath: string;
  try {
    manifestPath = resolve('@redocly/cli/package.json');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.redocly;
  if (!bin) throw new Error('@redocly/cli has no redocly bin');
  return path.join(path.dirname(manifestPath), bin);
}

/** Why the stage did not run without @redocly/cli, and the command that installs the range this package works with. */
function notInstalled(): string {
  const manifest = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as {
    peerDependencies?: Record<string, string>;
  };
  const range = manifest.peerDependencies?.['@redocly/cli'];
  return `the workflows are run by Redocly Respect, which comes with @redocly/cli, an optional peer dependency that is not installed; install it with npm install @redocly/cli@${range}`;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const conditionOf = (criterion: unknown) =>
  criterion && typeof criterion === 'object' ? text((criterion as { condition?: unknown }).condition) : '';

/** The workflows of a file, read with the step descriptions and success criteria that become the checks' rules. */
function declaredWorkflows(file: string): DeclaredWorkflow[] {
  const document = parse(readFileSync(file, 'utf8')) as { workflows?: Record<string, unknown>[] };
  const declared = (document.workflows ?? []).map((workflow) => {
    const steps = ((workflow.steps as Record<string, unknown>[] | undefined) ?? []).map((step) => {
      const criteria = ((step.successCriteria as unknown[] | undefined) ?? []).map(conditionOf).filter(Boolean);
      const description =
        typeof step.description === 'string' ? step.description.trim() : `step ${String(step.stepId)}`;
      const rule = `${description}${/[.!?]$/.test(description) ? '' : '.'}${criteria.length > 0 ? ` Success criteria: ${criteria.join('; ')}.` : ''} The status, Content-Type and body are ones the contract declares for the operation.`;
      return {
        stepId: String(step.stepId),
        rule,
        operation: text(step.operationId) || text(step.operationPath),
        calls: typeof step.workflowId === 'string' ? step.workflowId : undefined,
      };
    });
    const sandboxCalls = steps.filter(
      (step) =>
        step.operation.startsWith(`$sourceDescriptions.${SANDBOX_SOURCE}.`) ||
        step.operation.includes(`{$sourceDescriptions.${SANDBOX_SOURCE}.`),
    );
    return {
      workflowId: String(workflow.workflowId),
      about: [text(workflow.summary).trim(), text(workflow.description).trim()].filter(Boolean).join(' '),
      steps: steps.map(({ stepId, rule }) => ({ stepId, rule })),
      sandboxCalls: [...new Set(sandboxCalls.map((step) => step.operation.split('.').at(-1) ?? step.operation))],
      // Note: a workflow that depends on, or calls, one that needs the control API needs it too.
      uses: [
        ...((workflow.dependsOn as string[] | undefined) ?? []),
        ...steps.flatMap((step) => (step.calls ? [step.calls] : [])),
      ],
    };
  });
  const byId = new Map(declared.map((workflow) => [workflow.workflowId, workflow]));
  const calls = (workflow: (typeof declared)[number], seen: Set<string>): string[] => {
    if (seen.has(workflow.workflowId)) return [];
    seen.add(workflow.workflowId);
    const used = workflow.uses
      .map((id) => byId.get(id.replace(/^\$workflows\./, '')))
      .filter((found) => found !== undefined);
    return [...workflow.sandboxCalls, ...used.flatMap((found) => calls(found, seen))];
  };
  return declared.map((workflow) => ({
    workflowId: workflow.workflowId,
    about: workflow.about,
    steps: workflow.steps,
    sandboxCalls: [...new Set(calls(workflow, new Set()))],
  }));
}

/** The end of Respect's output, as a failure's detail shows it: without colours, credentials masked. */
function tailOf(output: string, credentials: Credentials): string {
  // Note: the framed notices Redocly prints (such as the end of a Node version's support) are left out.
  const lines = maskSecrets(stripVTControlCharacters(output), credentials)
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== '' && !/^\s*[║╔╚]/.test(line));
  return lines.length === 0 ? 'Respect printed nothing' : `its last output:\n${lines.slice(-15).join('\n')}`;
}

interface RespectRun {
  report?: RespectReport;
  /** Why there is no report: the time-out, a failed start, a missing or unreadable file. */
  problem?: string;
  output: string;
}

/**
 * Runs Respect on `file`, telling `progress` as each workflow starts. Credentials go through
 * REDOCLY_CLI_RESPECT_INPUT (the variable behind `--input`) as JSON, so no value is on a command line other users of
 * the machine can read, and no comma or `=` in a credential splits it.
 */
async function runRespect(
  options: FlowsOptions,
  bin: string,
  file: string,
  workflows: string[] | undefined,
  limits: FlowsLimits,
): Promise<RespectRun> {
  const dir = await mkdtemp(path.join(tmpdir(), 'conformance-flows-'));
  const json = path.join(dir, 'respect.json');
  const inputs = { ...inputsOf(options.credentials), run_id: randomBytes(12).toString('hex') };
  const args = [
    '--import',
    GUARD,
    bin,
    'respect',
    file,
    '--server',
    `payments=${options.baseUrl}`,
    '--server',
    `sandbox=${options.baseUrl}`,
    '--max-fetch-timeout',
    String(options.timeoutMs),
    '--execution-timeout',
    String(limits.runMs),
    ...(workflows ?? []).flatMap((workflowId) => ['--workflow', workflowId]),
    '-J',
    json,
  ];
  try {
    // Note: the working directory is empty, so a redocly.yaml where the kit is started does not change the run.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...QUIET_ENV,
      REDOCLY_CLI_RESPECT_INPUT: JSON.stringify(inputs),
      CONFORMANCE_RESPECT_ORIGIN: new URL(options.baseUrl).origin,
    };
    for (const name of PROXY_VARIABLES) delete env[name];
    const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let line = '';
    const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_KEPT));
    child.stdout.on('data', (chunk: Buffer) => {
      keep(chunk);
      const lines = (line + chunk.toString()).split('\n');
      line = (lines.pop() ?? '').slice(-1024);
      for (const text of lines) {
        const started = /Running workflow .+ \/ (\S+)/.exec(stripVTControlCharacters(text));
        if (started?.[1]) options.progress(started[1]);
      }
    });
    child.stderr.on('data', keep);
    const ended = await new Promise<{ code: number | null; timedOut: boolean; error?: Error }>((resolve) => {
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        try {
          if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
        } catch {
          // It ended meanwhile; 'close' follows.
        }
      }, limits.killAfterMs);
      child.on('error', (error) => {
        clearTimeout(timer);
        resolve({ code: null, timedOut, error });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, timedOut });
      });
    });
    if (ended.error) return { problem: `Respect could not be started: ${ended.error.message}`, output };
    if (ended.timedOut)
      return { problem: `Respect did not finish within ${limits.killAfterMs / 1000} s and was stopped`, output };
    const size = await stat(json).then(
      (info) => info.size,
      () => undefined,
    );
    if (size === undefined) return { problem: `Respect exited with code ${ended.code} and wrote no report`, output };
    if (size > REPORT_MAX_BYTES)
      return {
        problem: `Respect's report is ${Math.round(size / 1024 / 1024)} MB, more than the ${REPORT_MAX_BYTES / 1024 / 1024} MB read`,
        output,
      };
    try {
      return { report: JSON.parse(await readFile(json, 'utf8')) as RespectReport, output };
    } catch (error) {
      return { problem: `Respect's report could not be read: ${(error as Error).message}`, output };
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const bodyText = (body: unknown): string | undefined =>
  body === undefined || body === null || body === ''
    ? undefined
    : typeof body === 'string'
      ? body
      : JSON.stringify(body);

/** The step's request as the report shows it: Respect's masked credentials become the names of their variables. */
function requestOf(step: RespectStep, credentials: Credentials): RequestRecord | undefined {
  const request = step.request;
  if (!request?.url) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    const variable = MASKED_HEADERS[name.toLowerCase()];
    headers[name] = maskSecrets(
      variable && value.includes(MASK) ? value.replaceAll(MASK, `$${variable}`) : String(value),
      credentials,
    );
  }
  const record: RequestRecord = {
    method: (request.method ?? 'GET').toUpperCase(),
    url: maskSecrets(request.url, credentials),
    headers,
  };
  const body = bodyText(request.body);
  if (body !== undefined) record.body = excerptOf(body, credentials, 2000);
  return record;
}

function evidenceOf(step: RespectStep, credentials: Credentials): Evidence {
  const request = requestOf(step, credentials);
  const response = step.response;
  const contentType =
    Object.entries(response?.headers ?? {}).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? null;
  return {
    request,
    response: response?.statusCode
      ? responseRecordOf(response.statusCode, contentType, bodyText(response.body) ?? '', credentials)
      : undefined,
    curl: request ? curlOf(request) : undefined,
  };
}

const failing = (check: RespectCheck) =>
  check.passed === false && check.severity !== 'warn' && check.severity !== 'off';

/**
 * What Respect's message on a failed check says, on one line. Its message for an unmet criterion repeats the condition,
 * wraps what it found in boilerplate, and a schema error comes with a code frame of the body: the frame is reduced to
 * the offending line.
 */
function messageOf(message: unknown): string {
  if (typeof message !== 'string') return '';
  const kept: string[] = [];
  for (const line of stripVTControlCharacters(message)
    .split('\n')
    .map((text) => text.trim())
    .filter(Boolean)) {
    if (line.startsWith('>') && kept.length > 0) kept[kept.length - 1] += ` at ${line.replace(/^>\s*\d+\s*\|\s*/, '')}`;
    else if (!/^(\d+\s*)?\|/.test(line)) kept.push(line);
  }
  return kept
    .join('; ')
    .replace(/^Checking \w+ criteria: .*$/, '')
    .replace(/^Failed to pass \{.*?\}: /, '')
    .replace(/^Error in resolving runtime expression '.*?': /, '')
    .replace(/;? ?This could be because .*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** What went wrong in a step: each failed Respect check by name and condition, with Respect's message when it says more. */
function detailOf(step: RespectStep, failed: RespectCheck[], credentials: Credentials): string {
  const parts = failed.map((check) => {
    const says = messageOf(check.message);
    const name = check.name ?? 'check';
    return `${/fail|error/i.test(name) ? name : `${name} failed`}${check.condition ? `: ${check.condition}` : ''}${says ? ` (${says})` : ''}`;
  });
  if (parts.length === 0) parts.push(`Respect marked the step ${step.status ?? 'failed'}`);
  // Note: Respect reports a request that got no answer as status 0.
  const got = step.response?.statusCode ? ` (got ${step.response.statusCode})` : ' (no response)';
  return excerptOf(`${parts.join('; ')}${got}`, credentials, 1500);
}

/** The steps Respect ran in a workflow, those of a workflow called from a step included. */
const stepsOf = (steps: RespectStep[] | undefined): RespectStep[] =>
  (steps ?? []).flatMap((step) => (step.executedSteps ? stepsOf(step.executedSteps) : [step]));

/** One check per step Respect ran; the steps after a failed one, which Respect does not run, are listed as not checked. */
function recordWorkflow(
  options: FlowsOptions,
  declared: DeclaredWorkflow,
  ran: RespectWorkflow,
  limitMs: number,
): void {
  const { workflowId } = declared;
  const rules = new Map(declared.steps.map((step) => [step.stepId, step.rule]));
  const done = new Set<string>();
  let firstFailed: string | undefined;
  for (const step of stepsOf(ran.executedSteps)) {
    const stepId = step.stepId ?? '(unnamed)';
    const failed = (step.checks ?? []).filter(failing);
    const ok = failed.length === 0 && step.status !== 'error';
    done.add(stepId);
    if (!ok) firstFailed ??= stepId;
    const rule = rules.get(stepId) ?? `Step ${stepId} of workflow ${workflowId} passes its success criteria.`;
    options.record(
      workflowId,
      { check: `step ${stepId}`, ok, rule, ...(ok ? {} : { detail: detailOf(step, failed, options.credentials) }) },
      ok ? undefined : evidenceOf(step, options.credentials),
    );
  }
  if (ran.globalTimeoutError)
    options.record(workflowId, {
      check: 'workflow finished',
      ok: false,
      detail: `Respect's time limit of ${limitMs / 1000} s ran out`,
    });
  // Note: the steps not run are listed as not checked, not recorded as failures: only the step that failed is known
  // to be wrong. A workflow that passed with steps left out ended early by its own success actions.
  const left = declared.steps.filter((step) => !done.has(step.stepId)).map((step) => step.stepId);
  const why = firstFailed
    ? `Respect stops a workflow at its first failed step (${firstFailed})`
    : ran.globalTimeoutError
      ? 'the time limit ran out'
      : undefined;
  if (why && left.length > 0)
    options.skip(workflowId, `step${left.length === 1 ? '' : 's'} ${left.join(', ')} not run: ${why}`);
}

/** Runs the stage; without @redocly/cli installed it is skipped, saying how to install it. */
export async function flows(options: FlowsOptions): Promise<void> {
  const {
    variant,
    sandbox,
    watch,
    record,
    skip,
    credentials,
    limits = { runMs: RUN_LIMIT_MS, killAfterMs: KILL_AFTER_MS },
  } = options;
  const bin = respectBin(options.resolve ?? createRequire(import.meta.url).resolve);
  if (bin === undefined) return skip(WHOLE_STAGE, notInstalled());
  const file = contractFile(`arazzo/variant-${variant}.arazzo.yaml`);
  const declared = declaredWorkflows(file);
  const passable = options.stateless
    ? declared.filter((workflow) => Object.hasOwn(STATELESS_WORKFLOWS[variant], workflow.workflowId))
    : declared;
  for (const workflow of declared)
    if (!passable.includes(workflow)) skip(workflow.workflowId, workflowNeedsState(workflow.about));
  const chosen = sandbox ? passable : passable.filter((workflow) => workflow.sandboxCalls.length === 0);
  for (const workflow of passable) {
    if (!chosen.includes(workflow))
      skip(
        workflow.workflowId,
        `needs the sandbox control API (--sandbox): its steps call ${workflow.sandboxCalls.join(', ')}`,
      );
  }
  if (chosen.length === 0) return;

  watch.check();
  // Note: the run's deadline cuts Respect's run too; a run it cuts is reported as the stage stopped, not as Respect's fault.
  const remaining = watch.remainingMs();
  const bounded = { runMs: Math.min(limits.runMs, remaining), killAfterMs: Math.min(limits.killAfterMs, remaining) };
  const { report, problem, output } = await runRespect(
    options,
    bin,
    file,
    chosen.length === declared.length ? undefined : chosen.map((workflow) => workflow.workflowId),
    bounded,
  );
  watch.check();
  const ran = new Map<string, RespectWorkflow>();
  for (const entry of Object.values(report?.files ?? {}))
    for (const workflow of entry.executedWorkflows ?? [])
      if (workflow.workflowId) ran.set(workflow.workflowId, workflow);
  if (!report)
    return record(path.basename(file), {
      check: 'respect report',
      ok: false,
      detail: `${problem}; ${tailOf(output, credentials)}`,
    });
  options.countSent([...ran.values()].reduce((total, workflow) => total + (workflow.totalRequests ?? 0), 0));
  for (const workflow of chosen) {
    const result = ran.get(workflow.workflowId);
    if (result) recordWorkflow(options, workflow, result, limits.runMs);
    else
      record(workflow.workflowId, {
        check: 'workflow ran',
        ok: false,
        detail: `Respect's report has no result for this workflow; ${tailOf(output, credentials)}`,
      });
    options.progress(workflow.workflowId);
  }
}
