// Shared set-up for the sandbox's HTTP tests: sandboxes whose every response and webhook body is checked against the
// bundled specs by Ajv (independently of the sandbox's own code), typed clients on sandbox.fetch, and a receiver.
// The files that matter most for a store open theirs with openTestSandbox, on the store of the project that runs them:
// memory in the fast lane, postgres when the `postgres` project runs the same files (vitest.config.ts).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect, inject, onTestFinished, vi } from 'vitest';
import { createVariantAClient, createVariantBClient } from '../../packages/contract/src/index.js';
import {
  createFetchWebhookHandler,
  type VerifiedWebhookEvent,
  type WebhookEvent,
} from '../../packages/contract/src/webhooks/index.js';
import {
  contractValidators,
  createSandbox,
  openSandbox,
  type Sandbox,
  type SandboxOptions,
  type SandboxValidators,
} from '../../packages/sandbox/src/index.js';
import { beginIdempotent, fingerprint } from '../../packages/sandbox/src/core/index.js';
import { tenantIdOf } from '../../packages/sandbox/src/variants/credentials.js';
import { COMMANDS } from '../../packages/sandbox/src/variants/operation.js';
import { BundledSpec, type Node } from '../contract/bundled-spec.js';

/** The origin in-process requests use; nothing listens there. */
export const ORIGIN = 'http://sandbox.test';
/** Where in-process deliveries are addressed. */
export const HOOK_URL = 'http://merchant.test/webhooks';
/** A fixed webhook secret. */
export const SECRET = `whsec_${Buffer.from('sandbox-test-secret-24-bytes-long').toString('base64')}`;

const specs = {
  A: await BundledSpec.open('Variant A', 'variant-a'),
  B: await BundledSpec.open('Variant B', 'variant-b'),
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const compiled = new Map<string, ValidateFunction>();

function validator(spec: BundledSpec, key: string, schema: Node): ValidateFunction {
  let validate = compiled.get(key);
  if (!validate) compiled.set(key, (validate = ajv.compile(spec.expand(schema) as Node)));
  return validate;
}

const issues = (validate: ValidateFunction) =>
  (validate.errors ?? []).map((e) => ({
    pointer: e.instancePath || '/',
    detail: `${e.message ?? 'invalid'} (${e.schemaPath})`,
  }));

// Note: sent by every answer, or by the HTTP layer whatever the operation, so no operation needs to declare them.
const UNDECLARED_HEADERS = new Set(['content-type', 'content-length']);

/** What an answer sends that its declared response does not list: a problem `code` none of its examples shows, a header. */
function undeclared(
  spec: BundledSpec,
  response: Node,
  operationId: string,
  status: number,
  headers: Headers,
  body: unknown,
) {
  const found: { pointer: string; detail: string }[] = [];
  const declared = new Set(Object.keys((response.headers ?? {}) as Node).map((name) => name.toLowerCase()));
  headers.forEach((_value, name) => {
    if (!UNDECLARED_HEADERS.has(name) && !declared.has(name))
      found.push({ pointer: '/', detail: `${operationId} ${status} does not declare the header ${name}` });
  });
  const code = status >= 400 ? (body as { code?: string }).code : undefined;
  const examples = Object.values((response.content?.['application/problem+json']?.examples ?? {}) as Node).map(
    (e) => spec.resolve(e as Node).value?.code,
  );
  if (code !== undefined && !examples.includes(code))
    found.push({ pointer: '/code', detail: `${operationId} ${status} shows no example of ${code}` });
  return found.length > 0 ? found : undefined;
}

/** Checks every response and webhook body against the bundled spec of its variant, with Ajv, and that what it sends is declared. */
export const contractChecks: SandboxValidators = {
  response({ operation, status, headers, body }) {
    const spec = specs[operation.variant];
    const op = spec.operation(operation.operationId);
    const response = op && spec.response(op, String(status));
    if (!response) return [{ pointer: '/', detail: `${operation.operationId} declares no ${status} response` }];
    const schema = spec.bodySchema(response, status >= 400 ? 'application/problem+json' : 'application/json');
    if (!schema) return [{ pointer: '/', detail: `${operation.operationId} ${status} has no schema` }];
    const validate = validator(spec, `${operation.variant} ${operation.operationId} ${status}`, schema);
    if (!validate(body)) return issues(validate);
    return undeclared(spec, response, operation.operationId, status, headers, body);
  },
  webhook({ layout, body }) {
    const spec = specs.A;
    const name = layout === 'later' ? 'onStatusChange' : 'onStatusChangeEarlier';
    const validate = validator(spec, name, spec.bodySchema(spec.requestBody(spec.operation(name)!))!);
    return validate(body) ? undefined : issues(validate);
  },
};

/** The sandbox's own default checks (packages/contract/src/validation) and the Ajv checks above, so every answer passes both. */
export const bothChecks: SandboxValidators = {
  request: contractValidators.request,
  async response(check) {
    const found = [
      ...((await contractValidators.response?.(check)) ?? []),
      ...((await contractChecks.response?.(check)) ?? []),
    ];
    return found.length > 0 ? found : undefined;
  },
  async webhook(check) {
    const found = [
      ...((await contractValidators.webhook?.(check)) ?? []),
      ...((await contractChecks.webhook?.(check)) ?? []),
    ];
    return found.length > 0 ? found : undefined;
  },
};

const defaults = (options: SandboxOptions): SandboxOptions => ({
  seed: 'test',
  webhookSecret: SECRET,
  validate: bothChecks,
  ...options,
});

/** A sandbox on the memory store with a fixed seed and secret and both contract checks, closed after the test. */
export function newSandbox(options: SandboxOptions = {}): Sandbox {
  const sandbox = createSandbox(defaults(options));
  // Note: onTestFinished rather than a module-level afterEach, which a worker that keeps its modules (isolate: false)
  // registers for the first file it runs only.
  onTestFinished(() => sandbox.close());
  return sandbox;
}

/** The store this run's sandboxes of openTestSandbox use: `postgres` where the postgres project's global setup says so. */
export const STORE: 'memory' | 'postgres' = inject('sandboxStore') ?? 'memory';

const databases = new WeakMap<Sandbox, string>();

/** The database a postgres sandbox of openOnStore keeps its tenants in. */
export const databaseOf = (sandbox: Sandbox) => databases.get(sandbox);

/**
 * Opens a sandbox on STORE; the caller closes it. On postgres, each sandbox gets a database of its own, so that it
 * starts with no tenants, as a memory one does, and two sandboxes of one test never share one.
 */
export async function openOnStore(options: SandboxOptions = {}): Promise<Sandbox> {
  if (STORE === 'memory') return createSandbox(options);
  // Note: imported here, so that the fast lane never loads pg.
  const { freshDatabase } = await import('../postgres/database.js');
  const databaseUrl = await freshDatabase();
  const sandbox = await openSandbox({ ...options, store: 'postgres', databaseUrl });
  databases.set(sandbox, databaseUrl);
  return sandbox;
}

/** newSandbox's sandbox on STORE, closed (with its store's pool) when the test ends. */
export async function openTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await openOnStore(defaults(options));
  onTestFinished(() => sandbox.close());
  return sandbox;
}

/** A Variant A client on the sandbox, in-process. */
export const clientA = (sandbox: Sandbox, accessToken = 'token-a') =>
  createVariantAClient({ baseUrl: ORIGIN, accessToken, fetch: sandbox.fetch, retry: false });

/** A Variant B client on the sandbox, in-process. */
export const clientB = (sandbox: Sandbox, publicKey = 'pk_test', secretKey = 'sk_test') =>
  createVariantBClient({ baseUrl: ORIGIN, publicKey, secretKey, fetch: sandbox.fetch, retry: false });

/** One request as a receiver got it. */
export interface Received {
  headers: Headers;
  body: string;
}

/** A receiver behind the package's fetch handler that records the raw requests and the verified events. */
export function receiver(options: { allowEarlierLayout?: boolean; answer?: (n: number) => number | undefined } = {}) {
  const requests: Received[] = [];
  const events: VerifiedWebhookEvent<boolean>[] = [];
  const handler = createFetchWebhookHandler<boolean>({
    secrets: SECRET,
    allowEarlierLayout: options.allowEarlierLayout ?? false,
    onEvent: (event) => void events.push(event),
  });
  const fetch = async (request: Request) => {
    const copy = request.clone();
    requests.push({ headers: request.headers, body: await copy.text() });
    const status = options.answer?.(requests.length);
    if (status !== undefined) return new Response(null, { status });
    return handler(request);
  };
  // Note: `later` narrows the events when the receiver takes the later layout only.
  return { fetch, requests, events, later: events as WebhookEvent[] };
}

/** A JSON request to the sandbox. */
export function call(
  sandbox: Sandbox,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Response> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', ...headers } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  return sandbox.fetch(new Request(`${ORIGIN}${path}`, init));
}

/** A create-payment body. */
export const paymentBody = (over: Record<string, unknown> = {}) => ({
  amount: '42.50',
  currency: 'EUR',
  requisite: { type: 'card' },
  ...over,
});

/**
 * Holds `key` for a create-payment of `body` on token-a's tenant as a request whose process then died would have: the
 * hold taken through the sandbox's store, then never renewed, answered or let go.
 */
export async function abandonedHold(sandbox: Sandbox, key: string, body: unknown): Promise<void> {
  const print = fingerprint(COMMANDS.createPayment({ id: '', query: new URLSearchParams(), body }));
  const taken = await sandbox.store.transaction(tenantIdOf('a', 'token-a'), (state) =>
    beginIdempotent(state, 'createPayment', key, print, sandbox.runtime.now(state), sandbox.runtime.wallNow()),
  );
  if (taken.kind !== 'proceed') throw new Error(`the key ${key} was taken already`);
}

/** A webhook receiver that holds every delivery until `release()`; `holding` resolves once the first one arrives. */
export function heldReceiver() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const holding = new Promise<void>((resolve) => (reached = resolve));
  const fetch = async () => {
    reached();
    await held;
    return new Response(null, { status: 204 });
  };
  return { fetch, holding, release };
}

/**
 * Moves an injected wall clock `by` ms in steps of `step`, firing the faked intervals due at each (vi.useFakeTimers),
 * so that timers and the wall clock move together as they do in a live process.
 */
export async function moveWall(move: (ms: number) => void, by: number, step: number): Promise<void> {
  for (let moved = 0; moved < by; moved += step) {
    move(step);
    await vi.advanceTimersByTimeAsync(step);
  }
}

/** Sends a create-payment with `headers` twice: the first runs (200), the second replays it, and the tenant has one payment. */
export async function expectRunsOnceThenReplays(sandbox: Sandbox, headers: Record<string, string>): Promise<void> {
  const ran = await call(sandbox, 'POST', '/payments', headers, paymentBody());
  const again = await call(sandbox, 'POST', '/payments', headers, paymentBody());
  expect([
    ran.status,
    ran.headers.get('idempotent-replayed'),
    again.status,
    again.headers.get('idempotent-replayed'),
  ]).toEqual([200, null, 200, 'true']);
  expect(await again.json()).toEqual(await ran.json());
  expect(
    (await (await call(sandbox, 'GET', '/payments', { authorization: headers.authorization! })).json()).pagination
      .total,
  ).toBe(1);
}
