import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// The house rules run on their own (without spectral:oas and OWASP), once over every fixture.
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const fixturesDir = path.join(here, 'fixtures');
const ruleset = path.join(root, 'scripts/lint-rules/payments.spectral.yaml');
const RULES = [
  'payments-idempotency-key',
  'payments-money-schema',
  'payments-operation-errors',
  'payments-provenance',
  'payments-operation-id',
] as const;

interface SpectralResult {
  code: string;
  message: string;
  path: string[];
  severity: number;
  source?: string;
}

/** Resolves the Spectral CLI's JS entry file from its package.json `bin`. */
function spectralEntry(): string {
  const pkgPath = createRequire(import.meta.url).resolve('@stoplight/spectral-cli/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { bin: Record<string, string> };
  return path.join(path.dirname(pkgPath), pkg.bin['spectral'] ?? 'dist/index.js');
}

let results: SpectralResult[] = [];
const fixtures = readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

beforeAll(() => {
  const args = [
    'lint',
    ...fixtures.map((f) => path.join(fixturesDir, f)),
    '--ruleset',
    ruleset,
    '-f',
    'json',
    '--quiet',
  ];
  const run = spawnSync(process.execPath, [spectralEntry(), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, SCARF_ANALYTICS: 'false', DO_NOT_TRACK: '1' },
    maxBuffer: 32 * 1024 * 1024,
  });
  // Spectral exits 1 when it finds errors; anything else means it did not lint.
  if (run.status !== 0 && run.status !== 1) throw new Error(`spectral exited with ${run.status}: ${run.stderr}`);
  results = JSON.parse(run.stdout) as SpectralResult[];
});

const resultsFor = (fixture: string, code?: string): SpectralResult[] =>
  results.filter((r) => path.basename(r.source ?? '') === fixture && (code === undefined || r.code === code));

/** Asserts that `code` fired on `fixture` at exactly `at` with a message containing `text`. */
function expectHit(fixture: string, code: string, at: (string | number)[], text: string): void {
  expect(resultsFor(fixture, code)).toContainEqual(
    expect.objectContaining({ code, severity: 0, path: at.map(String), message: expect.stringContaining(text) }),
  );
}

describe('house rule fixtures', () => {
  it('has a bad fixture for every rule', () => {
    for (const rule of RULES) expect(fixtures).toContain(`bad-${rule.replace(/^payments-/, '')}.yaml`);
  });

  it('reports nothing on the good fixture', () => {
    expect(resultsFor('good.yaml')).toEqual([]);
  });

  it('reports only the broken rule on each bad fixture', () => {
    for (const rule of RULES) {
      const fixture = `bad-${rule.replace(/^payments-/, '')}.yaml`;
      expect(new Set(resultsFor(fixture).map((r) => r.code)), fixture).toEqual(new Set([rule]));
    }
  });
});

describe('payments-idempotency-key', () => {
  const bad = 'bad-idempotency-key.yaml';

  it('reports a POST whose Idempotency-Key is not a header parameter', () => {
    expectHit(
      bad,
      'payments-idempotency-key',
      ['paths', '/payments', 'post'],
      'POST /payments does not declare the Idempotency-Key header',
    );
  });

  it('reports an Idempotency-Key header that is not required', () => {
    expectHit(
      bad,
      'payments-idempotency-key',
      ['paths', '/payouts', 'post'],
      'POST /payouts declares the Idempotency-Key header parameter without required: true',
    );
  });

  it('accepts the header through a $ref or at path level, in any letter case', () => {
    expect(resultsFor('good.yaml', 'payments-idempotency-key')).toEqual([]);
  });
});

describe('payments-money-schema', () => {
  const bad = 'bad-money-schema.yaml';

  it('reports an inline money field nested in items and allOf of a response', () => {
    const at = [
      'paths',
      '/payments',
      'get',
      'responses',
      '200',
      'content',
      'application/json',
      'schema',
      'items',
      'allOf',
      1,
      'properties',
      'processed',
    ];
    expectHit(bad, 'payments-money-schema', at, 'Property "processed"');
    expectHit(bad, 'payments-money-schema', at, 'must be a $ref to #/components/schemas/Money, found an inline schema');
  });

  it('reports an amount field that references a schema other than Amount', () => {
    const at = ['components', 'schemas', 'Money', 'properties', 'amount'];
    expectHit(
      bad,
      'payments-money-schema',
      at,
      'must be a $ref to #/components/schemas/Amount, found a $ref to #/components/schemas/Money',
    );
  });

  it('accepts $refs with sibling keywords and ignores example values', () => {
    expect(resultsFor('good.yaml', 'payments-money-schema')).toEqual([]);
  });
});

describe('payments-operation-errors', () => {
  const bad = 'bad-operation-errors.yaml';
  const balance = ['paths', '/balance', 'get', 'responses'];

  it('reports an operation without a 401 response', () => {
    expectHit(bad, 'payments-operation-errors', balance, 'GET /balance does not declare a 401 response');
  });

  it('reports an operation without any 4xx response', () => {
    expectHit(bad, 'payments-operation-errors', balance, 'GET /balance declares no 4xx response');
  });

  it('reports an error response without application/problem+json content', () => {
    expectHit(
      bad,
      'payments-operation-errors',
      ['components', 'responses', 'ServerError'],
      'GET /payments response 500 has no application/problem+json content',
    );
  });

  it('reports an error response that offers application/json', () => {
    expectHit(
      bad,
      'payments-operation-errors',
      ['components', 'responses', 'ServerError', 'content'],
      'GET /payments response 500 declares application/json content',
    );
  });
});

describe('payments-provenance', () => {
  const bad = 'bad-provenance.yaml';
  const op = ['paths', '/payments', 'get'];

  it('reports an x-provenance value other than source or assumed', () => {
    expectHit(
      bad,
      'payments-provenance',
      [...op, 'x-provenance'],
      'x-provenance must be "source" or "assumed", found "guessed"',
    );
  });

  it('reports an assumed element without a description', () => {
    expectHit(
      bad,
      'payments-provenance',
      ['components', 'schemas', 'Problem'],
      'x-provenance: assumed needs a non-empty description',
    );
  });

  it('reports an x-assumed keyword with an empty reason', () => {
    expectHit(
      bad,
      'payments-provenance',
      ['components', 'schemas', 'Problem', 'x-assumed', 'required'],
      'x-assumed keyword "required" needs a non-empty reason',
    );
  });

  it('reports an assumed response code the operation does not declare', () => {
    expectHit(bad, 'payments-provenance', [...op, 'x-assumed-responses', 0], 'x-assumed-responses lists 409');
  });

  it('reports an assumed parameter name the operation does not declare', () => {
    expectHit(bad, 'payments-provenance', [...op, 'x-assumed-parameters', 0], 'x-assumed-parameters lists "limit"');
  });

  it('resolves parameter $refs and numeric response codes when checking the lists', () => {
    expect(resultsFor('good.yaml', 'payments-provenance')).toEqual([]);
  });
});

describe('payments-operation-id', () => {
  const bad = 'bad-operation-id.yaml';

  it('reports a path operationId that does not start with a known verb', () => {
    expectHit(
      bad,
      'payments-operation-id',
      ['paths', '/payments', 'get', 'operationId'],
      'operationId "fetchPayments" of GET /payments does not start with a verb',
    );
  });

  it('reports an operationId that is not camelCase', () => {
    expectHit(
      bad,
      'payments-operation-id',
      ['paths', '/payments/{paymentId}', 'get', 'operationId'],
      'operationId "retrieve_payment" of GET /payments/{paymentId} is not camelCase',
    );
  });

  it('reports a webhook operationId that does not start with "on"', () => {
    expectHit(
      bad,
      'payments-operation-id',
      ['webhooks', 'onStatusChange', 'post', 'operationId'],
      'operationId "statusChange" of webhook onStatusChange (POST) does not start with "on"',
    );
  });
});
