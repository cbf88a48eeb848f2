// The flows stage (the shipped Arazzo workflows run by the `redocly respect` command, exactly as a user runs them with
// npx) against sandboxes listening on 127.0.0.1 port 0 in this process: it must pass the sandbox, leave out what needs
// the control API without --sandbox, and fail servers with a seeded defect naming the workflow and step that caught it,
// with no credential in any report.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createAdaptorServer } from '@hono/node-server';
import { parse } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { flows as flowsStage } from '../../packages/conformance/src/flows.js';
import { maskSecrets } from '../../packages/conformance/src/http.js';
import {
  formatText,
  runConformance,
  toJunit,
  type ConformanceReport,
  type Credentials,
  type Progress,
} from '../../packages/conformance/src/index.js';
import { createResults } from '../../packages/conformance/src/results.js';
import { createWatch } from '../../packages/conformance/src/stop.js';
import { createSandbox } from '../../packages/sandbox/src/index.js';
import { server } from './broken-servers.js';
import { silentServer } from './silent-server.js';

const RUN_LIMIT_MS = 60_000;
const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
});

/** Fresh credentials for each run, so each run is a new tenant and no run can pass on another's secrets. */
function credentialsOf(variant: 'a' | 'b'): { credentials: Credentials; secrets: string[] } {
  if (variant === 'a') {
    const accessToken = `tok_${randomUUID()}`;
    return { credentials: { accessToken }, secrets: [accessToken] };
  }
  const [publicKey, secretKey] = [`pk_${randomUUID()}`, `sk_${randomUUID()}`];
  return { credentials: { publicKey, secretKey }, secrets: [publicKey, secretKey] };
}

/** The sandbox listening on a free port of 127.0.0.1; its URL. */
async function sandboxUrl(): Promise<string> {
  const sandbox = createSandbox({ seed: 'flows' });
  const { url } = await sandbox.listen({ port: 0, host: '127.0.0.1' });
  closing.push(() => sandbox.close());
  return url;
}

/** A sandbox with one defect, served over HTTP (Respect is another process); its URL. */
async function brokenUrl(defect: Parameters<typeof server>[0]): Promise<string> {
  const { sandbox, fetch } = server(defect);
  const http = createAdaptorServer({ fetch, overrideGlobalObjects: false }) as Server;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', () => resolve()));
  closing.push(
    () => new Promise((resolve) => http.close(resolve)),
    () => sandbox.close(),
  );
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

/** Each workflow of the shipped file with its step ids, and whether a step calls the sandbox's control API. */
function workflowsOf(variant: 'a' | 'b'): { workflowId: string; steps: string[]; needsSandbox: boolean }[] {
  const file = path.join(root, 'packages/contract/openapi/arazzo', `variant-${variant}.arazzo.yaml`);
  const document = parse(readFileSync(file, 'utf8')) as {
    workflows: { workflowId: string; steps: { stepId: string; operationId: string }[] }[];
  };
  return document.workflows.map(({ workflowId, steps }) => ({
    workflowId,
    steps: steps.map((step) => step.stepId),
    needsSandbox: steps.some((step) => step.operationId.startsWith('$sourceDescriptions.sandbox.')),
  }));
}

async function flows(variant: 'a' | 'b', baseUrl: string, sandbox: boolean) {
  const { credentials, secrets } = credentialsOf(variant);
  const progress: Progress[] = [];
  const report = await runConformance({
    variant,
    baseUrl,
    credentials,
    only: ['flows'],
    sandbox,
    onProgress: (seen) => progress.push(seen),
  });
  return { report, secrets, progress };
}

const stepsChecked = (report: ConformanceReport) =>
  report.checks.map((check) => `${check.operation} · ${check.check}`).sort();
const failing = (report: ConformanceReport) =>
  report.checks
    .filter((check) => !check.ok)
    .map((check) => `${check.operation} · ${check.check}`)
    .sort();
const written = (report: ConformanceReport) => `${JSON.stringify(report)}${formatText(report)}${toJunit(report)}`;

describe('the flows stage', () => {
  it.each(['a', 'b'] as const)(
    'passes the sandbox of Variant %s with --sandbox: every step of every workflow ran and passed',
    async (variant) => {
      const { report, secrets, progress } = await flows(variant, await sandboxUrl(), true);
      const workflows = workflowsOf(variant);
      expect(failing(report)).toEqual([]);
      expect(report.passed).toBe(true);
      expect(stepsChecked(report)).toEqual(
        workflows.flatMap(({ workflowId, steps }) => steps.map((step) => `${workflowId} · step ${step}`)).sort(),
      );
      expect(report.skipped).toEqual([]);
      expect(report.checks.every((check) => check.stage === 'flows' && check.rule.length > 20)).toBe(true);
      expect(new Set(progress.map((seen) => seen.operation))).toEqual(
        new Set(workflows.map((workflow) => workflow.workflowId)),
      );
      for (const secret of secrets) expect(written(report)).not.toContain(secret);
    },
    RUN_LIMIT_MS,
  );

  it(
    'without --sandbox runs only the workflows that need no control API and lists the others as not checked',
    async () => {
      const { report } = await flows('b', await sandboxUrl(), false);
      const workflows = workflowsOf('b');
      const outside = workflows.filter((workflow) => workflow.needsSandbox);
      expect(outside.length).toBeGreaterThan(0);
      expect(report.passed).toBe(true);
      expect(new Set(report.checks.map((check) => check.operation))).toEqual(
        new Set(workflows.filter((workflow) => !workflow.needsSandbox).map((workflow) => workflow.workflowId)),
      );
      expect(report.skipped).toEqual(
        outside.map(({ workflowId }) => ({
          stage: 'flows',
          subject: workflowId,
          reason: expect.stringMatching(/^needs the sandbox control API \(--sandbox\): its steps call advanceClock/),
        })),
      );
      expect(formatText(report)).toContain(
        'Not checked on this server:\n  - flows · payment-refund-and-balance: needs the sandbox control API (--sandbox)',
      );
    },
    RUN_LIMIT_MS,
  );

  it(
    'fails a server whose payments cannot be retrieved, at the retrieve steps, with the request, response and a masked curl line',
    async () => {
      const { report, secrets } = await flows('a', await brokenUrl('unretrievable'), false);
      expect(report.passed).toBe(false);
      expect(failing(report)).toEqual([
        'payment-cancel · step retrieve',
        'payment-create-retrieve-list · step retrieve',
      ]);
      const failure = report.checks.find((check) => check.operation === 'payment-create-retrieve-list' && !check.ok);
      expect(failure).toMatchObject({
        stage: 'flows',
        rule: expect.stringContaining('Retrieve it by id. Success criteria: $statusCode == 200'),
        detail: expect.stringMatching(/^success criteria check failed: \$statusCode == 200;.*\(got 404\)$/),
        request: {
          method: 'GET',
          url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/payments\/pay_/),
          headers: { authorization: 'Bearer $PAYMENTS_ACCESS_TOKEN' },
        },
        response: {
          status: 404,
          contentType: 'application/problem+json',
          bodyExcerpt: expect.stringContaining('"not_found"'),
        },
        curl: expect.stringMatching(
          /^curl -i -X GET 'http:\/\/127\.0\.0\.1:\d+\/payments\/pay_\w+' .*-H "authorization: Bearer \$PAYMENTS_ACCESS_TOKEN"/,
        ),
      });
      // Respect stops a workflow at its first failed step: the step after it is listed as not checked, not as passed.
      expect(report.skipped).toContainEqual({
        stage: 'flows',
        subject: 'payment-create-retrieve-list',
        reason: 'step list not run: Respect stops a workflow at its first failed step (retrieve)',
      });
      expect(
        report.checks.some(
          (check) => check.check === 'step list' && check.operation === 'payment-create-retrieve-list',
        ),
      ).toBe(false);
      expect(formatText(report)).toContain('✗ flows · payment-create-retrieve-list · step retrieve');
      for (const secret of secrets) expect(written(report)).not.toContain(secret);
    },
    RUN_LIMIT_MS,
  );

  it(
    'fails a server that ignores the Idempotency-Key at the replay step of the idempotency workflow',
    async () => {
      const { report, secrets } = await flows('b', await brokenUrl('ignoredIdempotencyKey'), false);
      expect(failing(report)).toEqual(['idempotency · step replay']);
      const failure = report.checks.find((check) => !check.ok);
      expect(failure?.detail).toBe(
        'success criteria check failed: $response.body#/data/id == $steps.first.outputs.id (got 200)',
      );
      expect(failure?.request).toMatchObject({
        method: 'POST',
        headers: { 'x-public-key': '$PAYMENTS_PUBLIC_KEY', 'x-secret-key': '$PAYMENTS_SECRET_KEY' },
        body: expect.stringContaining('"amount"'),
      });
      expect(failure?.curl).toContain('-H "x-secret-key: $PAYMENTS_SECRET_KEY"');
      expect(report.skipped).toContainEqual({
        stage: 'flows',
        subject: 'idempotency',
        reason: 'step other-body not run: Respect stops a workflow at its first failed step (replay)',
      });
      for (const secret of secrets) expect(written(report)).not.toContain(secret);
    },
    RUN_LIMIT_MS,
  );

  it(
    'keeps Respect from following a redirect to another origin: nothing reaches it, and the step fails saying why',
    async () => {
      const reached: string[] = [];
      const other = createServer((request, response) => {
        reached.push(`${request.method} ${request.url} ${String(request.headers['x-secret-key'])}`);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
      await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', () => resolve()));
      const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const base = createServer((request, response) =>
        response.writeHead(307, { location: `${otherUrl}${request.url}` }).end(),
      );
      await new Promise<void>((resolve) => base.listen(0, '127.0.0.1', () => resolve()));
      closing.push(
        ...[other, base].map(
          (server) => () =>
            new Promise((resolve) => {
              server.closeAllConnections();
              server.close(resolve);
            }),
        ),
      );
      const { report, secrets } = await flows('b', `http://127.0.0.1:${(base.address() as AddressInfo).port}`, false);
      expect(reached).toEqual([]);
      const failed = report.checks.filter((check) => !check.ok);
      expect(failed.length).toBeGreaterThan(0);
      for (const check of failed) expect(check.detail).toContain('fetch failed (cause: ERR_CONFORMANCE_OTHER_ORIGIN)');
      for (const secret of secrets) expect(written(report)).not.toContain(secret);
    },
    RUN_LIMIT_MS,
  );

  it(
    'stops a Respect run that outlives its time limit and fails with a check that says so and where it was',
    async () => {
      // A server that takes connections and never answers: Respect waits on its first request.
      const { url, sockets, close } = await silentServer();
      closing.push(close);
      const { credentials, secrets } = credentialsOf('a');
      const results = createResults((text) => maskSecrets(text, credentials));
      const stage = {
        record: results.record('flows'),
        skip: results.skip('flows'),
        progress: () => {},
        countSent: () => {},
      };
      // Respect's own limit is far off: it is checked only between steps, so it would not end the hanging request anyway.
      await flowsStage({
        variant: 'a',
        baseUrl: url,
        credentials,
        sandbox: false,
        timeoutMs: 60_000,
        watch: createWatch(120_000),
        ...stage,
        limits: { runMs: 60_000, killAfterMs: 3000 },
      });
      const [check, ...rest] = results.checks();
      expect(rest).toEqual([]);
      expect(check).toMatchObject({
        stage: 'flows',
        operation: 'variant-a.arazzo.yaml',
        check: 'respect report',
        ok: false,
      });
      expect(check?.detail).toMatch(
        /^Respect did not finish within 3 s and was stopped; (its last output:\n|Respect printed nothing$)/,
      );
      // Respect names the workflow before its first request: once the server saw that request, the detail says where it hung.
      if (sockets.length > 0)
        expect(check?.detail).toMatch(/Running workflow variant-a\.arazzo\.yaml \/ payment-create-retrieve-list$/);
      for (const secret of secrets) expect(JSON.stringify(check)).not.toContain(secret);
    },
    RUN_LIMIT_MS,
  );
});
