// The sandbox as the benchmark runs it: the package's built dist (what `merchant-payments-sandbox` runs), with every
// request, response and webhook body checked against the contract by the precompiled validators of packages/contract/src/validation.
//   node scripts/bench/sandbox-server.mjs --port <port>      serve it over HTTP until SIGTERM (a child of the bench)
// When createSandbox already validates by default, nothing is passed; until then the validators are handed in
// explicitly through the `validate` option, so that the figures are those of a validating sandbox either way.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { root } from '../lib/tools.mjs';

const dist = (name, file) => import(pathToFileURL(path.join(root, 'packages', name, 'dist/src', file)).href);

/** SandboxValidators over packages/contract/src/validation (request, response and webhook checks), for a sandbox that has none by default. */
export function contractValidators(validation) {
  const variant = (operation) => operation.variant.toLowerCase();
  const errors = (violations) => violations.map(({ pointer, detail }) => ({ pointer: pointer || '/', detail }));
  return {
    request({ operation, pathParams, query, headers, body }) {
      const result = validation.validateRequest(variant(operation), operation.operationId, {
        params: pathParams,
        query,
        headers,
        body,
      });
      if (result.ok) return undefined;
      const problem = validation.requestProblem(result);
      return { status: result.status, code: result.code, detail: problem.detail, errors: errors(result.violations) };
    },
    response({ operation, status, headers, body }) {
      // Note: the sandbox sends Content-Type itself (problem+json from 400 up); the check is handed the other headers.
      const sent = new Headers(headers);
      sent.set('content-type', status >= 400 ? 'application/problem+json' : 'application/json');
      const violations = validation.validateResponse(variant(operation), operation.operationId, {
        status,
        headers: sent,
        body,
      });
      return violations.length ? errors(violations) : undefined;
    },
    webhook({ layout, body }) {
      const violations = validation.validateWebhookBody(layout, body);
      return violations.length ? errors(violations) : undefined;
    },
  };
}

/** Whether a sandbox made with no options already rejects a request that breaks the contract (an unknown body field). */
async function validatesByDefault(createSandbox) {
  const sandbox = createSandbox({ seed: 'probe' });
  try {
    const response = await sandbox.fetch(
      new Request('http://sandbox.test/merchant/v1/payments', {
        method: 'POST',
        headers: {
          'x-public-key': 'pk_probe',
          'x-secret-key': 'sk_probe',
          'content-type': 'application/json',
          'idempotency-key': 'probe-1',
        },
        body: JSON.stringify({
          amount: '42.50',
          currency: 'EUR',
          requisite: { type: 'card', bank: 'Example Bank' },
          not_in_the_contract: 1,
        }),
      }),
    );
    await response.arrayBuffer();
    return response.status === 422;
  } finally {
    await sandbox.close();
  }
}

/**
 * Imports createSandbox from dist and works out the options that make it validate: `{}` when it does by default,
 * `{ validate }` otherwise. `how` says which, for the report.
 */
export async function validatingSandbox() {
  const { createSandbox } = await dist('sandbox', 'index.js');
  if (await validatesByDefault(createSandbox)) return { createSandbox, options: {}, how: 'validation on by default' };
  const validation = await dist('contract', 'validation/index.js');
  return {
    createSandbox,
    options: { validate: contractValidators(validation) },
    how: 'validators passed as the validate option (not on by default yet)',
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { port: { type: 'string' } } });
  const { createSandbox, options, how } = await validatingSandbox();
  const sandbox = createSandbox({
    ...options,
    clock: 'manual',
    seed: 'bench',
    webhookSecret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
  });
  const { url } = await sandbox.listen({ port: Number(values.port), host: '127.0.0.1' });
  console.log(`listening on ${url} (${how})`);
  const stop = () => sandbox.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // Note: the bench holds our stdin; when it dies without stopping us, stdin closes and we go too.
  process.stdin.resume();
  process.stdin.once('end', stop);
}
