// Runs the shipped Arazzo workflows with Redocly Respect against the sandbox on the loopback interface.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binPath, quietEnv, root } from '../../scripts/lib/tools.mjs';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';

interface Check { name: string; passed: boolean; message?: unknown }
interface Step { stepId: string; status: string; checks: Check[]; response?: { statusCode?: number; body?: unknown } }
interface Workflow { workflowId: string; status: string; executedSteps: Step[] }
interface Report { files: Record<string, { executedWorkflows: Workflow[] }> }

const RUN_LIMIT_MS = 90_000;
let sandbox: Sandbox;
let url: string;
const dir = mkdtempSync(path.join(tmpdir(), 'arazzo-'));

beforeAll(async () => {
  sandbox = createSandbox({ seed: 'arazzo' });
  ({ url } = await sandbox.listen({ port: 0, host: '127.0.0.1' }));
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `redocly respect` on one file; returns its JSON report. Asynchronous on purpose: the sandbox answers from this
 * process, so a synchronous spawn would block it. Credentials go through REDOCLY_CLI_RESPECT_INPUT (the environment
 * variable behind --input), so they are not on a command line that other users of the machine can read.
 */
function respect(file: string, inputs: Record<string, string>): Promise<{ report: Report; output: string }> {
  const json = path.join(dir, `${path.basename(file)}.json`);
  const args = [binPath('@redocly/cli', 'redocly'), 'respect', path.join(root, file), '--server', `payments=${url}`, '--server', `sandbox=${url}`, '-J', json];
  const input = Object.entries(inputs).map(([k, v]) => `${k}=${v}`).join(',');
  const child = spawn(process.execPath, args, { cwd: root, env: { ...quietEnv, REDOCLY_CLI_RESPECT_INPUT: input }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_LIMIT_MS);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      try {
        resolve({ report: JSON.parse(readFileSync(json, 'utf8')) as Report, output });
      } catch {
        reject(new Error(`respect wrote no report for ${file}:\n${output.slice(-4000)}`));
      }
    });
  });
}

/** One line per failed check, with the status and body the step got. */
function failures(report: Report): string[] {
  return Object.values(report.files).flatMap((f) =>
    f.executedWorkflows.flatMap((w) =>
      w.executedSteps.flatMap((s) =>
        s.checks.filter((c) => !c.passed).map((c) => `${w.workflowId}/${s.stepId}: ${c.name} (got ${s.response?.statusCode} ${JSON.stringify(s.response?.body)?.slice(0, 300)})`),
      ),
    ),
  );
}

const common = ['payment-create-retrieve-list', 'payment-cancel', 'payment-refund-and-balance', 'payout-lifecycle', 'appeal-lifecycle', 'idempotency', 'errors-unknown-id', 'auth-missing-credentials', 'auth-wrong-credentials'];
const cases = [
  { file: 'openapi/arazzo/variant-a.arazzo.yaml', workflows: [...common, 'payment-confirm'], inputs: () => ({ access_token: `tok_${randomUUID()}` }) },
  { file: 'openapi/arazzo/variant-b.arazzo.yaml', workflows: common, inputs: () => ({ public_key: `pk_${randomUUID()}`, secret_key: `sk_${randomUUID()}` }) },
];

describe('the Arazzo workflows against the sandbox', () => {
  for (const { file, workflows, inputs } of cases) {
    it(`${path.basename(file)}: every workflow and step passes`, async () => {
      // A fresh tenant per run: the lists and balances the workflows check start empty.
      const secrets = inputs();
      const { report, output } = await respect(file, { ...secrets, run_id: randomUUID() });
      const ran = Object.values(report.files).flatMap((f) => f.executedWorkflows);
      expect(ran.map((w) => w.workflowId).sort()).toEqual([...workflows].sort());
      expect(failures(report)).toEqual([]);
      for (const w of ran) {
        expect(w.status, w.workflowId).toBe('success');
        expect(w.executedSteps.length, w.workflowId).toBeGreaterThan(0);
        for (const s of w.executedSteps) expect(s.status, `${w.workflowId}/${s.stepId}`).toBe('success');
      }
      // Inputs marked format: password stay out of what Respect prints.
      for (const secret of Object.values(secrets)) expect(output).not.toContain(secret);
    }, RUN_LIMIT_MS + 10_000);
  }
});
