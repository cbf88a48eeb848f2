// The fuzz stage against the sandbox (it must pass) and against servers with one seeded defect each (it must fail,
// naming the check that catches the defect), in-process through the sandbox's fetch.
import { afterEach, describe, expect, it } from 'vitest';
import { runConformance, toJunit, type ConformanceReport } from '../../packages/conformance/src/index.js';
import type { Sandbox } from '../../packages/sandbox/src/index.js';
import { server } from './broken-servers.js';

const credentials = {
  a: { accessToken: 'tok_conformance_Secret_A1' },
  b: { publicKey: 'pk_conformance_Public_B1', secretKey: 'sk_conformance_Secret_B1' },
} as const;
const secrets = ['tok_conformance_Secret_A1', 'pk_conformance_Public_B1', 'sk_conformance_Secret_B1'];
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
});

async function fuzz(variant: 'a' | 'b', defect?: Parameters<typeof server>[0]): Promise<ConformanceReport> {
  const { sandbox, fetch } = server(defect);
  open.push(sandbox);
  return runConformance({
    variant,
    baseUrl: 'http://sandbox.test',
    credentials: credentials[variant],
    only: ['fuzz'],
    seed: 12,
    requests: 8,
    fetch,
  });
}
const failing = (report: ConformanceReport) =>
  [...new Set(report.checks.filter((check) => !check.ok).map((check) => check.check))].sort();

describe('the fuzz stage', () => {
  it.each(['a', 'b'] as const)(
    'passes the sandbox of Variant %s, with every check judged on every operation',
    async (variant) => {
      const report = await fuzz(variant);
      expect(report.checks.filter((check) => !check.ok)).toEqual([]);
      expect(report.passed).toBe(true);
      const operations = new Set(report.checks.map((check) => check.operation));
      expect(operations.size).toBe(variant === 'a' ? 15 : 14);
      for (const check of [
        'ignored_auth',
        'positive_data_acceptance',
        'negative_data_rejection',
        'response_schema_conformance',
      ]) {
        expect(report.checks.filter((result) => result.check === check).length, check).toBeGreaterThan(5);
      }
      // 8 generated requests and 1 without credentials per operation.
      expect(report.requests).toBe(operations.size * 9);
    },
  );

  it('sends the same requests for the same seed', async () => {
    const first = await fuzz('b');
    const second = await fuzz('b');
    expect(second.checks.map(({ operation, check, judged }) => [operation, check, judged])).toEqual(
      first.checks.map(({ operation, check, judged }) => [operation, check, judged]),
    );
  });

  it.each([
    ['wrongType', 'response_schema_conformance'],
    ['serverError', 'not_a_server_error'],
    ['ignoredCredentials', 'ignored_auth'],
    ['wrongContentType', 'content_type_conformance'],
    ['malformedHeader', 'response_headers_conformance'],
  ] as const)('fails a server with the defect %s on %s alone', async (defect, check) => {
    for (const variant of ['a', 'b'] as const) {
      const report = await fuzz(variant, defect);
      expect(report.passed).toBe(false);
      expect(failing(report)).toEqual([check]);
    }
  });

  it('fails a server that answers with an undeclared status on status_code_conformance', async () => {
    const report = await fuzz('a', 'undeclaredStatus');
    expect(failing(report)).toContain('status_code_conformance');
    const failure = report.checks.find((check) => check.check === 'status_code_conformance' && !check.ok);
    expect(failure?.detail).toMatch(/Status 410 is not declared/);
  });

  it('fails a server that takes a body with a property the contract does not have on negative_data_rejection', async () => {
    const report = await fuzz('b', 'acceptsInvalid');
    expect(failing(report)).toContain('negative_data_rejection');
  });

  it('reports a failure with its rule, request, response and a curl line, and no credential anywhere', async () => {
    for (const variant of ['a', 'b'] as const) {
      const report = await fuzz(variant, 'ignoredCredentials');
      const failure = report.checks.find((check) => !check.ok);
      expect(failure).toMatchObject({
        stage: 'fuzz',
        check: 'ignored_auth',
        rule: expect.stringContaining('401'),
        response: { status: expect.any(Number) },
      });
      expect(failure?.curl).toMatch(/^curl -i -X (GET|POST) 'http:\/\/sandbox\.test\//);
      const withCredentials = report.checks.find((check) => check.curl?.includes('$PAYMENTS_'));
      const written = JSON.stringify(report) + toJunit(report);
      for (const secret of secrets) expect(written).not.toContain(secret);
      if (withCredentials)
        expect(withCredentials.curl).toMatch(
          /"(Authorization: Bearer \$PAYMENTS_ACCESS_TOKEN|X-Secret-Key: \$PAYMENTS_SECRET_KEY)"/,
        );
    }
  });
});
