// The Spectral ruleset of the sandbox's control API: the main ruleset, with only the documented rules turned down or
// redefined. Runs on the committed bundle and on copies of it broken on purpose.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apis } from '../../scripts/lib/apis.mjs';
import { root, runTool } from '../../scripts/lib/tools.mjs';

interface SpectralResult {
  code: string;
  message: string;
  path: string[];
  severity: number;
  source?: string;
}

const ruleset = apis.sandbox!['x-spectral-ruleset']!;
const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-ruleset-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The committed bundle, changed by `edit`, written as `name`. */
function variantOfBundle(name: string, edit: (doc: any) => void): string {
  const doc = parse(readFileSync(path.join(root, apis.sandbox!.output), 'utf8'));
  edit(doc);
  const file = path.join(dir, name);
  writeFileSync(file, stringify(doc));
  return file;
}

let results: SpectralResult[] = [];
const resultsFor = (file: string) => results.filter((r) => path.basename(r.source ?? '') === file);

beforeAll(() => {
  const files = [
    variantOfBundle('as-committed.yaml', () => {}),
    variantOfBundle('broken.yaml', (doc) => {
      doc.paths['/_sandbox/clock/advance'].post.parameters = [];
      doc.paths['/_sandbox/reset'].post.operationId = 'wipeTenant';
      delete doc.paths['/_sandbox/faults'].get.responses['401'];
      doc.components.schemas.AdvanceClockRequest.properties.seconds = { type: 'integer' };
    }),
  ];
  const json = path.join(dir, 'results.json');
  const run = runTool(
    '@stoplight/spectral-cli',
    'spectral',
    ['lint', ...files, '--ruleset', path.join(root, ruleset), '-f', 'json', '--output', json, '--quiet'],
    { capture: true },
  );
  // Note: Spectral exits 1 when it finds errors; anything else means it did not lint.
  if (run.status !== 0 && run.status !== 1) throw new Error(`spectral exited with ${run.status}: ${run.stderr}`);
  results = JSON.parse(readFileSync(json, 'utf8')) as SpectralResult[];
}, 120_000);

describe('the sandbox ruleset', () => {
  it('finds no error in the committed bundle', () => {
    expect(resultsFor('as-committed.yaml').filter((r) => r.severity === 0)).toEqual([]);
  });

  it('still requires every POST to declare Idempotency-Key, optional here', () => {
    expect(
      resultsFor('broken.yaml')
        .filter((r) => r.code === 'payments-idempotency-key')
        .map((r) => r.message),
    ).toEqual(['POST /_sandbox/clock/advance does not declare the Idempotency-Key header parameter']);
  });

  it('accepts the control verbs, and still refuses an operationId that starts with another word', () => {
    const hits = resultsFor('broken.yaml').filter((r) => r.code === 'payments-operation-id');
    expect(hits.map((r) => r.path.join('.'))).toEqual(['paths./_sandbox/reset.post.operationId']);
  });

  it('keeps the house and OWASP rules that fit: a 401 on every operation, every integer bounded', () => {
    const codes = new Set(
      resultsFor('broken.yaml')
        .filter((r) => r.severity === 0)
        .map((r) => r.code),
    );
    expect(codes).toContain('payments-operation-errors');
    expect([...codes].filter((code) => code.startsWith('owasp:api4:2023-integer'))).not.toEqual([]);
  });

  it('turns off only the documented rules, each with a reason on the line above', () => {
    const text = readFileSync(path.join(root, ruleset), 'utf8').split('\n');
    const off = text.flatMap((line, i) =>
      /^\s+[\w:-]+: "off"$/.test(line) ? [[line.trim().split(':').slice(0, -1).join(':'), text[i - 1]!.trim()]] : [],
    );
    expect(off.map(([rule]) => rule)).toEqual(['owasp:api8:2023-no-server-http', 'owasp:api4:2023-rate-limit']);
    for (const [rule, reason] of off) expect(reason, rule).toMatch(/^# \S/);
  });
});
