// Every operation of both variants, with its success and each error status it declares, through the typed clients
// against the sandbox behind Prism's validating proxy: Prism checks every answer against the bundled contract on its
// own, so a sandbox answer that breaks the contract fails here even if the sandbox's own checks missed it.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import getPort from 'get-port';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientOptions } from '../../packages/contract/src/index.js';
import { collectOutput, hasExited, spawnTiedNode, stopChild } from '../../packages/contract/src/shared/children.js';
import { waitForPort } from '../../packages/cli/src/mock/ports.js';
import {
  contractValidators,
  createSandbox,
  createSandboxControlClient,
  type Sandbox,
  type SandboxControlClient,
  type SandboxTenant,
  type SandboxValidators,
} from '../../packages/sandbox/src/index.js';
import { LIFECYCLES } from '../../packages/contract/generated/sandbox/lifecycles.js';
import { root } from '../../scripts/lib/tools.mjs';
import { fromSource, stillAlive, stillBound } from '../mock/processes.js';
import {
  callOperation,
  findOperation,
  newCredentials,
  OPERATIONS,
  typedClient,
  unique,
  VARIANTS,
  type AnyClient,
  type Credentials,
  type Operation,
  type Parts,
  type Result,
  type Variant,
} from './operations.js';

const pairName = (variant: Variant, operationId: string, status: string | number) =>
  `${variant} ${operationId} ${status}`;

/**
 * The declared pairs no request can draw from the sandbox through the proxy, in both variants, and why. Each entry
 * must stay declared and uncovered (the last test checks both), so it goes as soon as it stops being true.
 */
const UNREACHABLE: { status: string; operations: string[]; reason: string }[] = [
  {
    status: '400',
    operations: [
      'listPayments',
      'retrievePayment',
      'listPayouts',
      'retrievePayout',
      'listAppeals',
      'retrieveAppeal',
      'retrieveBalance',
    ],
    reason:
      'the contract answers 400 for an unreadable body or a missing Idempotency-Key (src/validation/README.md), and a GET has ' +
      'neither: Prism refuses to forward a GET with a body (501), and the sandbox never reads one. Anything else wrong with a GET is 422.',
  },
  {
    status: '404',
    operations: ['listPayments', 'listPayouts', 'listAppeals'],
    reason:
      'a list names no object that could be missing: a filter that matches nothing is an empty page (200, total 0).',
  },
  {
    status: '422',
    operations: ['retrieveBalance'],
    reason: 'Retrieve Balance takes no parameter, header or body, so nothing in its request can be invalid.',
  },
];
const UNREACHABLE_PAIRS = new Map(
  UNREACHABLE.flatMap(({ status, operations, reason }) =>
    VARIANTS.flatMap((v) => operations.map((id) => [pairName(v, id, status), reason] as const)),
  ),
);

/** The pairs whose answer came from the sandbox, passed Prism without a violation and had the expected status and code. */
const covered = new Set<string>();

// ---------------------------------------------------------------------------------------------------------------
// Processes: one sandbox on a free 127.0.0.1 port (port 0: the system picks it), one Prism proxy per variant in front of it.

let sandbox: Sandbox;
let sandboxUrl: string;
const proxies = {} as Record<Variant, { url: string; port: number; child: ChildProcess }>;

/** Requests held inside the sandbox's request check (the Idempotency-Key taken), by key, until released. */
const held = new Map<string, { reached: () => void; released: Promise<void> }>();

/**
 * The sandbox's own validators, with one wait added: a request whose key is held stops inside the request check,
 * where the sandbox holds its Idempotency-Key, so a second request with that key meets a request in progress.
 */
function holdingValidators(): SandboxValidators {
  return {
    ...contractValidators,
    async request(check) {
      const key = check.headers.get('idempotency-key');
      const hold = key === null ? undefined : held.get(key);
      if (hold) {
        hold.reached();
        await hold.released;
      }
      return contractValidators.request?.(check);
    },
  };
}

/** The mock command's source, run with tsx as the bin runs its build. */
const mockCommand = path.join(root, 'packages/cli/src/mock/command.ts');

/**
 * `merchant-payments-mock --upstream <sandbox> --responses-only`: Prism's validating proxy, checking every answer.
 * Note: --responses-only passes requests on unchecked; with request validation on, Prism answers a request that
 * breaks the contract itself (its own 422, without a `code`), so the sandbox's 400 and 422 would never be checked.
 * Prism still refuses missing credentials (401) and unparsable JSON (400) itself.
 */
async function startProxy(variant: Variant, upstream: string) {
  const port = await getPort();
  const args = ['--variant', variant.toLowerCase(), '--port', String(port), '--upstream', upstream, '--responses-only'];
  const child = spawnTiedNode(mockCommand, args, { nodeArgs: fromSource, env: { ...process.env, FORCE_COLOR: '0' } });
  const output = collectOutput(child);
  try {
    await waitForPort(port, '127.0.0.1', { timeoutMs: 30_000, isDead: () => hasExited(child) });
  } catch (error) {
    await stopChild(child);
    throw new Error(
      `merchant-payments-mock --upstream for Variant ${variant} did not start: ${(error as Error).message}\n${output()}`,
      { cause: error },
    );
  }
  return { url: `http://127.0.0.1:${port}`, port, child };
}

beforeAll(async () => {
  sandbox = createSandbox({ clock: 'manual', seed: 'proxy', validate: holdingValidators() });
  sandboxUrl = (await sandbox.listen({ port: 0, host: '127.0.0.1' })).url;
  const [a, b] = await Promise.all(VARIANTS.map((v) => startProxy(v, sandboxUrl)));
  Object.assign(proxies, { A: a, B: b });
});

afterAll(async () => {
  const started = VARIANTS.map((v) => proxies[v]).filter((p) => p !== undefined);
  await Promise.all(started.map((p) => stopChild(p.child)));
  await sandbox?.close();
  const ports = [...started.map((p) => p.port), ...(sandboxUrl ? [Number(new URL(sandboxUrl).port)] : [])];
  expect(await stillAlive(started.map((p) => p.child.pid!))).toEqual([]);
  expect(await stillBound(ports)).toEqual([]);
});

// ---------------------------------------------------------------------------------------------------------------
// Tenants and calls.

/** A tenant of its own per test, so that tests share nothing: a client through the proxy, one in-process, the control client. */
class Tenant {
  readonly name: SandboxTenant;
  readonly control: SandboxControlClient;
  private readonly credentials: Credentials;

  constructor(readonly variant: Variant) {
    this.credentials = newCredentials(variant, 'proxy');
    this.name =
      'accessToken' in this.credentials
        ? { accessToken: this.credentials.accessToken }
        : { publicKey: this.credentials.publicKey };
    this.control = createSandboxControlClient({
      baseUrl: 'http://sandbox.test',
      fetch: sandbox.fetch,
      retry: false,
      ...this.credentials,
    });
  }

  /** A typed client of this tenant: through the proxy, or `direct` to the sandbox in-process (for set-up). */
  client(options: Partial<ClientOptions> & { direct?: boolean; secretKey?: string } = {}): AnyClient {
    const { direct = false, secretKey, ...rest } = options;
    const where = direct
      ? { baseUrl: 'http://sandbox.test', fetch: sandbox.fetch }
      : { baseUrl: proxies[this.variant].url };
    const credentials =
      secretKey !== undefined && 'secretKey' in this.credentials
        ? { ...this.credentials, secretKey }
        : this.credentials;
    return typedClient(credentials, { ...where, ...rest });
  }

  /** Calls an operation of this tenant's variant by its operationId (through the proxy unless another client is given). */
  call(operationId: string, parts: Parts = {}, client = this.client()): Promise<Result> {
    const op = findOperation(this.variant, operationId);
    if (!op) throw new Error(`Variant ${this.variant} has no operation ${operationId}`);
    return callOperation(client, op, parts);
  }

  /** Set-up straight on the sandbox: calls an operation and expects a 200. */
  async setUp(operationId: string, parts: Parts = {}): Promise<any> {
    const { data, error, response } = await this.call(operationId, parts, this.client({ direct: true }));
    expect(response.status, `set-up ${operationId}: ${JSON.stringify(error)}`).toBe(200);
    return data.data;
  }

  advance(seconds: number): Promise<void> {
    return sandbox.advance(this.name, seconds);
  }
}

// The set-up the operations need, on the tenant's manual clock: a payment succeeds 7 s after it is created, and the
// magic amount 9.05 keeps a payment or payout pending (docs/sandbox-values.md); 60 s passes every step.
const paymentBody = (amount = '100.00') => ({
  amount,
  currency: 'EUR',
  requisite: { type: 'card' },
  metadata: { order_id: unique('order-') },
});
const payoutBody = (amount = '10.00') => ({
  amount,
  currency: 'EUR',
  requisite: { type: 'card', card_number: '4111111111111111' },
  metadata: { order_id: unique('order-') },
});

const payment = async (t: Tenant, amount?: string, seconds = 0) => {
  const { id } = await t.setUp('createPayment', { body: paymentBody(amount) });
  if (seconds > 0) await t.advance(seconds);
  return id as string;
};
const succeededPayment = (t: Tenant) => payment(t, '100.00', 60);
const pendingPayment = (t: Tenant) => payment(t, '9.05', 60);
const payout = async (t: Tenant, amount?: string, seconds = 0) => {
  await succeededPayment(t);
  const { id } = await t.setUp('createPayout', { body: payoutBody(amount) });
  if (seconds > 0) await t.advance(seconds);
  return id as string;
};
const pendingPayout = (t: Tenant) => payout(t, '9.05', 60);
const appeal = async (t: Tenant) => {
  const { id } = await t.setUp('createAppeal', {
    body: { transaction_id: await payment(t), amount: '1.00', currency: 'EUR' },
  });
  return id as string;
};
const canceled = async (t: Tenant, operationId: string, id: Promise<string>) => {
  const object = await id;
  await t.setUp(operationId, { id: object });
  return object;
};

/** What one operation needs for each kind of answer; every operation of the contract must have one. */
interface Recipe {
  /** A request the operation succeeds with, after whatever set-up it needs; each call makes a different request. */
  ok(t: Tenant): Promise<Parts>;
  /** The status the object has after a successful call, when the call moves it. */
  moves?: string;
  /** A request Prism passes on and the sandbox refuses as invalid (422 validation_failed), and where errors[] points. */
  invalid?: { at: string[]; parts(t: Tenant): Promise<Parts> };
  /** A request the object's status does not allow: 422 invalid_state. */
  wrongState?(t: Tenant): Promise<Parts>;
  /** Other refusals, with their status and code. */
  others?: { status: number; code: string; parts(t: Tenant): Promise<Parts> }[];
}

const MISSING = 'zz_missing_object_1';
const BAD_ID = 'not.an.id';
/** Stands for the operation's path parameter in `invalid.at` (`/id` in Variant A, `/paymentId` in Variant B…). */
const PATH_PARAMETER = '{path}';
const badId = { at: [PATH_PARAMETER], parts: async () => ({ id: BAD_ID }) };

const RECIPES: Record<string, Recipe> = {
  createPayment: {
    ok: async () => ({ body: paymentBody() }),
    invalid: { at: ['/amount'], parts: async () => ({ body: { ...paymentBody(), amount: '12,50' } }) },
  },
  listPayments: {
    ok: async (t) => (await payment(t), { query: { status: 'created', limit: 10 } }),
    invalid: { at: ['/limit'], parts: async () => ({ query: { limit: 0 } }) },
  },
  retrievePayment: {
    ok: async (t) => ({ id: await payment(t) }),
    invalid: badId,
  },
  confirmPayment: {
    ok: async (t) => ({ id: await pendingPayment(t), body: { reference: unique('transfer-') } }),
    moves: 'succeeded',
    invalid: { at: ['/reference'], parts: async (t) => ({ id: await pendingPayment(t), body: {} }) },
    wrongState: async (t) => ({ id: await payment(t), body: { reference: unique('transfer-') } }),
  },
  cancelPayment: {
    ok: async (t) => ({ id: await payment(t) }),
    moves: 'canceled',
    invalid: badId,
    wrongState: async (t) => ({ id: await succeededPayment(t) }),
  },
  refundPayment: {
    ok: async (t) => ({ id: await succeededPayment(t) }),
    moves: 'refunded',
    invalid: badId,
    wrongState: async (t) => ({ id: await payment(t) }),
  },
  createPayout: {
    ok: async (t) => (await succeededPayment(t), { body: payoutBody() }),
    invalid: {
      at: ['/requisite/card_number'],
      parts: async () => ({ body: { ...payoutBody(), requisite: { type: 'card' } } }),
    },
    others: [{ status: 422, code: 'insufficient_balance', parts: async () => ({ body: payoutBody() }) }],
  },
  listPayouts: {
    ok: async (t) => (await payout(t), { query: { status: 'created' } }),
    invalid: { at: ['/limit'], parts: async () => ({ query: { limit: 101 } }) },
  },
  retrievePayout: {
    ok: async (t) => ({ id: await payout(t) }),
    invalid: badId,
  },
  cancelPayout: {
    ok: async (t) => ({ id: await pendingPayout(t) }),
    moves: 'canceled',
    invalid: badId,
    wrongState: async (t) => ({ id: await payout(t) }),
  },
  createAppeal: {
    ok: async (t) => ({
      body: { transaction_id: await payment(t), amount: '1.00', currency: 'EUR', metadata: { case: unique('case-') } },
    }),
    invalid: {
      at: ['/currency'],
      parts: async (t) => ({ body: { transaction_id: await payment(t), amount: '1.00', currency: 'eur' } }),
    },
    others: [
      {
        status: 404,
        code: 'not_found',
        parts: async () => ({ body: { transaction_id: MISSING, amount: '1.00', currency: 'EUR' } }),
      },
    ],
  },
  listAppeals: {
    ok: async (t) => (await appeal(t), { query: { status: 'pending', offset: 0 } }),
    invalid: { at: ['/offset'], parts: async () => ({ query: { offset: -1 } }) },
  },
  retrieveAppeal: {
    ok: async (t) => ({ id: await appeal(t) }),
    invalid: badId,
  },
  cancelAppeal: {
    ok: async (t) => ({ id: await appeal(t) }),
    moves: 'canceled',
    invalid: badId,
    wrongState: async (t) => ({ id: await canceled(t, 'cancelAppeal', appeal(t)) }),
  },
  retrieveBalance: {
    ok: async (t) => (await succeededPayment(t), {}),
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Checking an answer.

/**
 * Expects the sandbox's own answer with this status (and problem `code`), passed by Prism without a violation, and
 * marks the pair covered. A problem Prism wrote itself has a `validation` array and no `code`, so it never passes.
 */
function expectAnswer(op: Operation, result: Result, status: number, code?: string): void {
  const { response } = result;
  const body = response.ok ? result.data : result.error;
  const seen = {
    status: response.status,
    code: status >= 400 ? body?.code : undefined,
    violations: response.headers.get('sl-violations'),
    prism: body?.validation,
  };
  expect(seen, `${op.variant} ${op.operationId}: ${JSON.stringify(body)}`).toEqual({
    status,
    code,
    violations: null,
    prism: undefined,
  });
  if (status >= 400) expect(body.request_id, 'the sandbox writes every problem, with its request_id').toMatch(/^req_/);
  else expect(body).toHaveProperty('data');
  covered.add(pairName(op.variant, op.operationId, status));
}

/** One way to draw one status from one operation. */
interface Scenario {
  status: number;
  code?: string;
  title: string;
  run(t: Tenant, op: Operation): Promise<void>;
}

/** A fault of `kind` on the tenant's next request to the operation, made through the control API. */
async function fault(t: Tenant, op: Operation, kind: 'rate_limit' | 'server_error') {
  const { response, error } = await t.control.POST('/_sandbox/faults', {
    body: {
      operation_id: op.operationId as never,
      kind,
      count: 1,
      ...(kind === 'rate_limit' ? { retry_after: 2 } : {}),
    },
  });
  expect(response.status, JSON.stringify(error)).toBe(201);
}

/** The ways to draw each status from an operation, from what it declares and what its recipe offers. */
function scenariosOf(op: Operation, recipe: Recipe): Scenario[] {
  const list: Scenario[] = [
    {
      status: 200,
      title: 'succeeds',
      async run(t) {
        const result = await t.call(op.operationId, await recipe.ok(t));
        expectAnswer(op, result, 200);
        if (recipe.moves) expect(result.data.data.status).toBe(recipe.moves);
      },
    },
    {
      status: 401,
      code: 'unauthorized',
      title: 'refuses credentials the sandbox does not accept',
      async run(t) {
        const parts = await recipe.ok(t);
        // Note: Prism answers missing credentials itself; these reach the sandbox. Variant B's secret key is not the
        // one the tenant first used (the set-up may not have used it yet, so it does now); Variant A's Authorization
        // has a second word after the token.
        if (t.variant === 'B') await t.setUp('retrieveBalance');
        const client =
          t.variant === 'B'
            ? t.client({ secretKey: 'sk_not_the_first_one' })
            : t.client({
                fetch: (request) => {
                  request.headers.set('authorization', `${request.headers.get('authorization')} extra`);
                  return fetch(request);
                },
              });
        expectAnswer(op, await t.call(op.operationId, parts, client), 401, 'unauthorized');
      },
    },
    {
      status: 429,
      code: 'rate_limited',
      title: 'answers a rate-limit fault with Retry-After',
      async run(t) {
        const parts = await recipe.ok(t);
        await fault(t, op, 'rate_limit');
        const result = await t.call(op.operationId, parts);
        expectAnswer(op, result, 429, 'rate_limited');
        expect(result.response.headers.get('retry-after')).toBe('2');
      },
    },
    {
      status: 500,
      code: 'internal_error',
      title: 'answers a server-error fault',
      async run(t) {
        const parts = await recipe.ok(t);
        await fault(t, op, 'server_error');
        const result = await t.call(op.operationId, parts);
        expectAnswer(op, result, 500, 'internal_error');
        // Note: the sandbox's own response check also answers 500 internal_error, naming violations in errors[].
        expect(result.error.errors, 'the fault, not a response that broke the contract').toBeUndefined();
      },
    },
  ];
  if (op.pathParam) {
    list.push({
      status: 404,
      code: 'not_found',
      title: 'answers an id the tenant does not have',
      async run(t) {
        const parts = await recipe.ok(t);
        expectAnswer(op, await t.call(op.operationId, { ...parts, id: MISSING }), 404, 'not_found');
      },
    });
  }
  if (op.keyed) {
    list.push(
      {
        status: 400,
        code: 'idempotency_key_missing',
        title: 'refuses a request without an Idempotency-Key',
        async run(t) {
          const parts = await recipe.ok(t);
          expectAnswer(
            op,
            await t.call(op.operationId, parts, t.client({ generateIdempotencyKey: false })),
            400,
            'idempotency_key_missing',
          );
        },
      },
      {
        status: 409,
        code: 'idempotency_request_in_progress',
        title: 'answers a second request while the first with its key is in progress',
        async run(t) {
          const parts = { ...(await recipe.ok(t)), key: unique('key-') };
          let reached!: () => void;
          let release!: () => void;
          const inside = new Promise<void>((resolve) => (reached = resolve));
          held.set(parts.key, { reached, released: new Promise<void>((resolve) => (release = resolve)) });
          try {
            const first = t.call(op.operationId, parts);
            await inside;
            expectAnswer(op, await t.call(op.operationId, parts), 409, 'idempotency_request_in_progress');
            release();
            expect((await first).response.status).toBe(200);
          } finally {
            release();
            held.delete(parts.key);
          }
        },
      },
      {
        status: 422,
        code: 'idempotency_key_reused',
        title: 'replays the same request with its key, and refuses the key with another request',
        async run(t) {
          const first = { ...(await recipe.ok(t)), key: unique('key-') };
          const answer = await t.call(op.operationId, first);
          expectAnswer(op, answer, 200);
          const replay = await t.call(op.operationId, first);
          expectAnswer(op, replay, 200);
          expect([replay.response.headers.get('idempotent-replayed'), replay.data]).toEqual(['true', answer.data]);
          expectAnswer(
            op,
            await t.call(op.operationId, { ...(await recipe.ok(t)), key: first.key }),
            422,
            'idempotency_key_reused',
          );
        },
      },
    );
  }
  if (op.hasBody) {
    list.push({
      status: 400,
      code: 'bad_request',
      title: 'refuses a body with a "__proto__" key',
      async run(t) {
        const { body, ...parts } = await recipe.ok(t);
        const poisoned = { ...(body as object), ['__proto__']: { admin: true } };
        expectAnswer(op, await t.call(op.operationId, { ...parts, body: poisoned }), 400, 'bad_request');
      },
    });
  } else if (op.method === 'POST') {
    list.push({
      status: 400,
      code: 'bad_request',
      title: 'refuses a body where the operation takes none',
      async run(t) {
        expectAnswer(
          op,
          await t.call(op.operationId, { ...(await recipe.ok(t)), body: { reason: 'duplicate' } }),
          400,
          'bad_request',
        );
      },
    });
  }
  if (recipe.invalid) {
    const invalid = recipe.invalid;
    list.push({
      status: 422,
      code: 'validation_failed',
      title: 'refuses a request that breaks the contract, naming the violation',
      async run(t) {
        const result = await t.call(op.operationId, await invalid.parts(t));
        expectAnswer(op, result, 422, 'validation_failed');
        const pointers = invalid.at.map((at) => (at === PATH_PARAMETER ? `/${op.pathParam}` : at));
        expect(
          result.error.errors?.map((e: { pointer: string }) => e.pointer),
          'errors[] names the actual violations',
        ).toEqual(pointers);
      },
    });
  }
  if (recipe.wrongState) {
    const wrongState = recipe.wrongState;
    list.push({
      status: 422,
      code: 'invalid_state',
      title: 'refuses an object whose status does not allow the call',
      async run(t) {
        expectAnswer(op, await t.call(op.operationId, await wrongState(t)), 422, 'invalid_state');
      },
    });
  }
  for (const other of recipe.others ?? []) {
    list.push({
      status: other.status,
      code: other.code,
      title: `answers ${other.code}`,
      async run(t) {
        expectAnswer(op, await t.call(op.operationId, await other.parts(t)), other.status, other.code);
      },
    });
  }
  return list.sort((a, b) => a.status - b.status);
}

// ---------------------------------------------------------------------------------------------------------------

for (const variant of VARIANTS) {
  describe(`Variant ${variant} through Prism's proxy`, () => {
    for (const op of OPERATIONS.filter((o) => o.variant === variant)) {
      describe(`${op.operationId} (${op.method} ${op.path})`, () => {
        const recipe = RECIPES[op.operationId];
        if (!recipe) {
          it('has a recipe', () =>
            expect.fail(`${op.operationId} is in the contract but not in RECIPES; add how to call it`));
          return;
        }
        for (const scenario of scenariosOf(op, recipe)) {
          it(`${scenario.status}${scenario.code ? ` ${scenario.code}` : ''}: ${scenario.title}`, () =>
            scenario.run(new Tenant(variant), op));
        }
      });
    }

    it('writes the balance within the Amount schema for the longest amounts a payment may have', async () => {
      const t = new Tenant(variant);
      // Note: 32 characters each, the Amount's maxLength; "1…1.00" and "1…1.50" would be 35 and 33.
      const amounts = { EUR: '1'.repeat(32), USD: `${'1'.repeat(30)}.5` };
      for (const [currency, amount] of Object.entries(amounts))
        await t.setUp('createPayment', { body: { amount, currency, requisite: { type: 'card' } } });
      const pending = await t.call('retrieveBalance');
      expectAnswer(findOperation(variant, 'retrieveBalance')!, pending, 200);
      expect(pending.data.data.balances).toEqual([
        { currency: 'EUR', available: '0.00', pending: amounts.EUR },
        { currency: 'USD', available: '0.00', pending: amounts.USD },
      ]);
      await t.advance(60);
      const available = await t.call('retrieveBalance');
      expectAnswer(findOperation(variant, 'retrieveBalance')!, available, 200);
      expect(available.data.data.balances).toEqual([
        { currency: 'EUR', available: amounts.EUR, pending: '0.00' },
        { currency: 'USD', available: amounts.USD, pending: '0.00' },
      ]);
    });

    // Note: each status fills other fields (processed, refunded, resolved, reason_code), so Prism sees each one's shape.
    for (const kind of Object.keys(LIFECYCLES) as (keyof typeof LIFECYCLES)[]) {
      it(`retrieves and lists a ${kind} in each status of its table`, async () => {
        const t = new Tenant(variant);
        const Kind = kind[0]!.toUpperCase() + kind.slice(1);
        for (const status of LIFECYCLES[kind].statuses) {
          const id = await forcedTo(t, kind, status);
          const retrieved = await t.call(`retrieve${Kind}`, { id });
          expectAnswer(findOperation(variant, `retrieve${Kind}`)!, retrieved, 200);
          expect(retrieved.data.data.status).toBe(status);
          const listed = await t.call(`list${Kind}s`, { query: { status } });
          expectAnswer(findOperation(variant, `list${Kind}s`)!, listed, 200);
          expect(listed.data.data.map((item: { id: string }) => item.id)).toContain(id);
        }
      });
    }
  });
}

/** The shortest path of rows in a table from the creation status to `status`. */
function pathTo(kind: keyof typeof LIFECYCLES, status: string): { to: string; reason_code: string | null }[] {
  const rows = LIFECYCLES[kind].transitions as readonly {
    from: readonly string[] | null;
    to: string;
    reason_code: string | null;
  }[];
  const start = rows.find((row) => row.from === null)!.to;
  const paths = new Map<string, { to: string; reason_code: string | null }[]>([[start, []]]);
  for (const [at, path] of paths) {
    for (const row of rows) if (row.from?.includes(at) && !paths.has(row.to)) paths.set(row.to, [...path, row]);
  }
  const found = paths.get(status);
  if (!found) throw new Error(`No path of the ${kind} table leads to ${status}`);
  return found;
}

/** A new object brought to `status` by forcing each row of the way through the control API. */
async function forcedTo(t: Tenant, kind: keyof typeof LIFECYCLES, status: string): Promise<string> {
  const id = kind === 'payment' ? await payment(t) : kind === 'payout' ? await payout(t) : await appeal(t);
  for (const step of pathTo(kind, status)) {
    const control = t.control as unknown as AnyClient;
    const body = step.reason_code ? { status: step.to, reason_code: step.reason_code } : { status: step.to };
    const { response, error } = await control.POST(`/_sandbox/${kind}s/{${kind}Id}/status`, {
      params: { path: { [`${kind}Id`]: id } },
      body,
    });
    expect(response.status, JSON.stringify(error)).toBe(200);
  }
  return id;
}

describe('coverage', () => {
  it('drew every declared operation × status pair of both variants through the proxy, but the few listed as unreachable', () => {
    const declared = OPERATIONS.flatMap((op) =>
      op.statuses.map((status) => pairName(op.variant, op.operationId, status)),
    );
    const missing = declared.filter((pair) => !covered.has(pair) && !UNREACHABLE_PAIRS.has(pair));
    expect(missing, `pairs no test drew from the sandbox through the proxy: ${missing.join(', ')}`).toEqual([]);
    const stale = [...UNREACHABLE_PAIRS.keys()].filter((pair) => !declared.includes(pair) || covered.has(pair));
    expect(stale, 'UNREACHABLE lists pairs that are not declared, or that a test did draw').toEqual([]);
    const undeclared = [...covered].filter((pair) => !declared.includes(pair));
    expect(undeclared).toEqual([]);
    for (const variant of VARIANTS) {
      const ofVariant = declared.filter((pair) => pair.startsWith(`${variant} `));
      console.info(
        `Variant ${variant}: ${ofVariant.filter((pair) => covered.has(pair)).length} of ${ofVariant.length} operation × status pairs drawn through Prism's proxy`,
      );
    }
  });
});
