// Set-up for the control API's tests: every answer under /_sandbox is checked with Ajv against the control document
// (packages/contract/generated/openapi/sandbox.yaml), independently of the sandbox's own checks, and each test fails on any violation.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, onTestFinished } from 'vitest';
import { createSandboxControlClient, type Sandbox, type SandboxOptions } from '../../packages/sandbox/src/index.js';
import { BundledSpec, type Node } from '../contract/bundled-spec.js';
import { newSandbox, openTestSandbox, ORIGIN } from './fixtures.js';

/** The control document, bundled. */
export const controlSpec = await BundledSpec.open('Sandbox control', 'sandbox');

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const compiled = new Map<string, ValidateFunction>();

/** The schema of a node of the control document, compiled once. */
export function controlValidator(key: string, schema: Node): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = ajv.compile(controlSpec.expand(schema) as Node)));
  return validate;
}

const routes = controlSpec
  .operations()
  .map((op) => ({ op, pattern: new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`) }));

/** Every way an answer breaks the control document: an undeclared status, a wrong media type, a body off its schema. */
export async function controlViolations(request: Request, response: Response): Promise<string[]> {
  const { pathname } = new URL(request.url);
  const route = routes.find((r) => r.op.method === request.method && r.pattern.test(pathname));
  if (!route) return [`${request.method} ${pathname} is no operation of the control document`];
  const { op } = route;
  const declared = controlSpec.response(op, String(response.status));
  if (!declared) return [`${op.operationId} declares no ${response.status}`];
  const text = await response.clone().text();
  const mediaType = response.status >= 400 ? 'application/problem+json' : 'application/json';
  const schema = controlSpec.bodySchema(declared, mediaType);
  if (!schema) return text === '' ? [] : [`${op.operationId} ${response.status} declares no body, but one was sent`];
  if (response.headers.get('content-type') !== mediaType)
    return [`${op.operationId} ${response.status} is not ${mediaType}`];
  const validate = controlValidator(`${op.operationId} ${response.status}`, schema);
  return validate(JSON.parse(text))
    ? []
    : (validate.errors ?? []).map((e) => `${op.operationId} ${response.status} ${e.instancePath} ${e.message}`);
}

/** A sandbox (fixtures.ts: seed `test`, both contract checks) whose every /_sandbox answer is held to the control document. */
export function controlSandbox(options: SandboxOptions = {}): Sandbox {
  return checked(newSandbox(options));
}

/** controlSandbox's sandbox on the run's store (fixtures.ts, openTestSandbox). */
export async function openControlSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return checked(await openTestSandbox(options));
}

/** The sandbox with every /_sandbox answer checked, failing the test that made it on any violation. */
function checked(sandbox: Sandbox): Sandbox {
  const found: string[] = [];
  // Note: per test rather than a module-level afterEach, which a worker that keeps its modules (isolate: false)
  // registers for the first file it runs only.
  onTestFinished(() => void expect(found, 'answers under /_sandbox that break the control document').toEqual([]));
  const handle = sandbox.fetch;
  const fetch = async (request: Request) => {
    const copy = request.clone();
    const response = await handle(request);
    if (new URL(request.url).pathname.startsWith('/_sandbox/'))
      found.push(...(await controlViolations(copy, response)));
    return response;
  };
  return Object.assign(Object.create(sandbox) as Sandbox, { fetch });
}

/** A control client on the sandbox, in-process, for a Variant A tenant (the bearer token) without retries. */
export const controlA = (sandbox: Sandbox, accessToken = 'token-a', options: { retry?: false } = { retry: false }) =>
  createSandboxControlClient({ baseUrl: ORIGIN, accessToken, fetch: sandbox.fetch, ...options });

/** A control client for a Variant B tenant (the public key). */
export const controlB = (sandbox: Sandbox, publicKey = 'pk_test', secretKey = 'sk_test') =>
  createSandboxControlClient({ baseUrl: ORIGIN, publicKey, secretKey, fetch: sandbox.fetch, retry: false });
