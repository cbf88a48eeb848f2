// How a variant is put together from the parts written once (scripts/redocly/contract-plugin.mjs), on a small spec.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { binPath, quietEnv, root } from '../../scripts/lib/tools.mjs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'composition-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const files: Record<string, string> = {
  'redocly.yaml': `plugins: ['${path.join(root, 'scripts/redocly/contract-plugin.mjs')}']
preprocessors: { contract/shared-operations: on, contract/shared-description: on }
extends: [minimal]
`,
  'components/Problem.yaml': 'description: A problem\n',
  'components/Key.yaml': 'name: Idempotency-Key\nin: header\nrequired: true\nschema: { type: string }\n',
  'operations/error-responses.yaml': `responses:
  '400': { $ref: ../components/Problem.yaml }
  '401': { $ref: ../components/Problem.yaml }
  '409': { $ref: ../components/Problem.yaml }
stated: ['401']
only-with-parameter: { '409': Idempotency-Key }
`,
  'operations/refundThing.yaml': `operationId: refundThing
parameters: [{ $ref: ../components/Key.yaml }]
responses: { '200': { description: The thing } }
`,
  'description.md': 'Shared part.\n',
  'variant/description.md': 'Own part.\n',
  'variant/openapi.yaml': `openapi: 3.1.0
info:
  title: T
  version: '1'
  description: { $ref: description.md }
  x-description-shared: { $ref: ../description.md }
x-error-responses: { $ref: ../operations/error-responses.yaml }
paths:
  /things/{id}/refund:
    $ref: paths/things.yaml
  /things:
    get:
      operationId: listThings
      summary: List Things
      x-provenance: source
      responses: { '200': { description: The things } }
`,
  'variant/paths/things.yaml': `parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
post:
  $ref: ../../operations/refundThing.yaml
  summary: Refund Thing
  x-provenance: source
  responses: { '400': { $ref: ../../components/Problem.yaml } }
`,
};
for (const [file, text] of Object.entries(files)) {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

const redocly = (...args: string[]) =>
  spawnSync(process.execPath, [binPath('@redocly/cli', 'redocly'), ...args], {
    cwd: dir,
    env: quietEnv,
    encoding: 'utf8',
  });

describe('the contract plugin', () => {
  it('bundles a shared operation with the fields the variant adds, the error responses and their provenance', () => {
    const run = redocly('bundle', 'variant/openapi.yaml', '--output', 'out.yaml');
    expect(run.status, run.stderr).toBe(0);
    const doc = parse(readFileSync(path.join(dir, 'out.yaml'), 'utf8'));
    expect(doc.info.description).toBe('Own part.\n\nShared part.\n');
    expect(doc['x-error-responses']).toBeUndefined();
    const refund = doc.paths['/things/{id}/refund'].post;
    expect(Object.keys(refund)).toEqual([
      'operationId',
      'summary',
      'x-provenance',
      'parameters',
      'responses',
      'x-assumed-responses',
    ]);
    expect(Object.keys(refund.responses)).toEqual(['200', '400', '401', '409']);
    // 400 is the variant's own (stated there), 401 stated everywhere: only 409 is the contract's addition.
    expect(refund['x-assumed-responses']).toEqual(['409']);
    const list = doc.paths['/things'].get;
    expect(Object.keys(list.responses)).toEqual(['200', '400', '401']);
    expect(list['x-assumed-responses']).toEqual(['400']);
  });

  it('makes a field written both in the shared operation and in the variant a lint error', () => {
    writeFileSync(
      path.join(dir, 'variant/paths/things.yaml'),
      `${files['variant/paths/things.yaml']}  operationId: refundIt\n`,
    );
    const run = redocly('lint', 'variant/openapi.yaml');
    expect(run.status).not.toBe(0);
    expect(run.stdout + run.stderr).toContain('`operationId` is written both here and in the shared operation');
  });
});
