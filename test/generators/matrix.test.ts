// The generator matrix (issue 34, first part): each independent generator reads each variant's bundled spec as a
// stranger would, its TypeScript output must compile under `strict`, and its client must run a merchant's flow
// against an in-memory sandbox on 127.0.0.1: create a payment, retrieve it, list payments, force it to `succeeded`
// through the control API (not the generator's client: the control API is not the subject), and refund it, every
// answer checked for its status and key fields.
//
// A generator that fails today is listed in `known` with the exact failure: its case then asserts that failure, so
// the file stays green and honest, and a fix (in the contract or the tool) fails the case until it leaves the list.
// docs/generators.md is the first draft of the matrix these cases make.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';
import { strictOptions, tsFiles, typecheck } from '../tools/typecheck.js';
import { bundles, makeWorkspace, root, type Workspace } from '../tools/workspace.js';

type Variant = (typeof bundles)[number]['variant'];

/** What a flow prints as its last line: each step's HTTP status (where the client exposes it) and key fields. */
interface FlowResult {
  create: { status: number; id: string; state: string; amount: string };
  retrieve: { status: number; id: string; state: string };
  list: { status: number; ids: string[] };
  refund: { status: number; id: string; refunded: string };
}

interface Generator {
  name: string;
  /** The package whose exact version is pinned in the root package.json. */
  pkg: string;
  /** Writes the client into `out`. */
  generate(spec: string, out: string, variant: Variant, dir: string): Promise<void> | void;
  /** Compiler options for the output and the flow; null when the output is not TypeScript. */
  compile: ts.CompilerOptions | null;
  /** The flow's TypeScript source, run from the workspace with `node --import tsx`; it reads BASE_URL. */
  flow(variant: Variant): string;
  /** Failures known today, per variant and stage, as a pattern the failure's text must match. */
  known?: Partial<Record<Variant, { compile?: RegExp; flow?: RegExp }>>;
}

const bundlerStrict: ts.CompilerOptions = {
  ...strictOptions,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
};

const nodeNextStrict: ts.CompilerOptions = {
  ...strictOptions,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
};

/**
 * Runs a command without blocking the event loop (the sandbox answers from this process); throws with its output
 * unless it exits 0.
 */
function run(command: string, args: string[], cwd: string, timeoutMs: number, env: Record<string, string> = {}) {
  return new Promise<string>((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd,
        encoding: 'utf8',
        timeout: timeoutMs,
        env: { ...process.env, DO_NOT_TRACK: '1', NO_UPDATE_NOTIFIER: '1', FORCE_COLOR: '0', ...env },
      },
      (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        if (error) reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${output}`));
        else resolve(output);
      },
    );
  });
}

/** What every flow shares: credentials per variant, the paths' prefix, the control API and the final report. */
const prelude = (variant: Variant) => `
declare const process: { env: Record<string, string | undefined> };
export const BASE = process.env['BASE_URL']!;
export const A = ${variant === 'variant-a'};
export const PREFIX = A ? '' : '/merchant/v1';
export const AUTH: Record<string, string> = A
  ? { Authorization: 'Bearer token-matrix' }
  : { 'X-Public-Key': 'pk_matrix', 'X-Secret-Key': 'sk_matrix' };
export const key = () => crypto.randomUUID();
export const BODY = { amount: '42.50', currency: 'EUR', requisite: { type: 'card' } } as const;
/** Forces a payment to succeeded through the control API (created -> pending -> succeeded), with plain fetch. */
export async function succeed(id: string): Promise<void> {
  for (const status of ['pending', 'succeeded']) {
    const r = await fetch(BASE + '/_sandbox/payments/' + id + '/status', {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json', 'Idempotency-Key': key() },
      body: JSON.stringify({ status }),
    });
    if (r.status !== 200) throw new Error('control API: ' + status + ' answered ' + r.status + ' ' + (await r.text()));
  }
}
export function report(result: unknown): void {
  console.log('FLOW ' + JSON.stringify(result));
}
`;

const generators: Generator[] = [
  {
    name: '@hey-api/openapi-ts (fetch client, zod plugin)',
    pkg: '@hey-api/openapi-ts',
    compile: nodeNextStrict,
    async generate(spec, out) {
      const { createClient } = await import('@hey-api/openapi-ts');
      await createClient({
        input: spec,
        output: { path: out, tsConfigPath: path.join(root, 'tsconfig.json') },
        plugins: ['@hey-api/client-fetch', '@hey-api/sdk', '@hey-api/typescript', 'zod'],
        logs: { level: 'silent', file: false },
        interactive: false,
      });
    },
    flow: (variant) => `
import { client } from './client/client.gen.js';
import { createPayment, listPayments, refundPayment, retrievePayment } from './client/sdk.gen.js';
import { AUTH, BASE, BODY, key, report, succeed } from './prelude.js';
client.setConfig({ baseUrl: BASE, headers: AUTH });
const created = await createPayment({ body: BODY, headers: { 'Idempotency-Key': key() } });
if (!created.data) throw new Error('create: ' + created.response.status + ' ' + JSON.stringify(created.error));
const id = created.data.data.id;
const path = ${variant === 'variant-a' ? '{ id }' : '{ paymentId: id }'};
const retrieved = await retrievePayment({ path });
const listed = await listPayments({ query: { limit: 10 } });
await succeed(id);
const refunded = await refundPayment({ path, headers: { 'Idempotency-Key': key() } });
report({
  create: { status: created.response.status, id, state: created.data.data.status, amount: created.data.data.requested.amount },
  retrieve: { status: retrieved.response.status, id: retrieved.data?.data.id, state: retrieved.data?.data.status },
  list: { status: listed.response.status, ids: listed.data?.data.map((p) => p.id) },
  refund: { status: refunded.response.status, id: refunded.data?.data.id, refunded: refunded.data?.data.refunded?.amount },
});
`,
  },
  {
    name: 'openapi-typescript-codegen (fetch)',
    pkg: 'openapi-typescript-codegen',
    compile: bundlerStrict,
    async generate(spec, out) {
      const { generate } = await import('openapi-typescript-codegen');
      await generate({ input: spec, output: out, httpClient: 'fetch' });
    },
    // Note: its services return the body and throw ApiError on any status its `errors` list, so a returned body means 200.
    flow: () => `
import { OpenAPI, PaymentsService } from './client/index';
import { AUTH, BASE, BODY, key, report, succeed } from './prelude';
OpenAPI.BASE = BASE;
OpenAPI.HEADERS = AUTH;
const created = await PaymentsService.createPayment(key(), BODY);
const id = created.data.id;
const retrieved = await PaymentsService.retrievePayment(id);
const listed = await PaymentsService.listPayments(10);
await succeed(id);
const refunded = await PaymentsService.refundPayment(id, key());
report({
  create: { status: 200, id, state: created.data.status, amount: created.data.requested.amount },
  retrieve: { status: 200, id: retrieved.data.id, state: retrieved.data.status },
  list: { status: 200, ids: listed.data.map((p) => p.id) },
  refund: { status: 200, id: refunded.data.id, refunded: refunded.data.refunded?.amount },
});
`,
  },
  {
    name: 'swagger-typescript-api (fetch)',
    pkg: 'swagger-typescript-api',
    compile: bundlerStrict,
    async generate(spec, out, _variant, dir) {
      await run(
        path.join(root, 'node_modules', '.bin', 'swagger-typescript-api'),
        ['generate', '--path', spec, '--output', out, '--name', 'api.ts'],
        dir,
        180_000,
      );
    },
    // Note: its client throws the HttpResponse on a status that is not ok; the flow turns that into an Error that
    // names the step, the status and the problem's code.
    flow: (variant) => `
import { Api } from './client/api';
import { AUTH, BASE, BODY, key, report, succeed } from './prelude';
const api = new Api({ baseUrl: BASE, baseApiParams: { headers: AUTH } });
const group = api.${variant === 'variant-a' ? 'payments' : 'merchant'};
async function step<T>(name: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    const r = e as { status?: number; error?: { code?: string; detail?: string } };
    throw new Error(name + ' answered ' + r.status + ' ' + r.error?.code + ': ' + r.error?.detail);
  }
}
const created = await step('create', () => group.createPayment(BODY, { headers: { 'Idempotency-Key': key() } }));
const id = created.data.data.id;
const retrieved = await step('retrieve', () => group.retrievePayment(id));
const listed = await step('list', () => group.listPayments({ limit: 10 }));
await succeed(id);
const refunded = await step('refund', () => group.refundPayment(id, { headers: { 'Idempotency-Key': key() } }));
report({
  create: { status: created.status, id, state: created.data.data.status, amount: created.data.data.requested.amount },
  retrieve: { status: retrieved.status, id: retrieved.data.data.id, state: retrieved.data.data.status },
  list: { status: listed.status, ids: listed.data.data.map((p) => p.id) },
  refund: { status: refunded.status, id: refunded.data.data.id, refunded: refunded.data.data.refunded?.amount },
});
`,
    // swagger-typescript-api 13.13.0 sets `type: ContentType.Json` only where the operation's requestBody is inline;
    // createPayment's requestBody is `$ref: '#/components/requestBodies/CreatePayment'` (packages/contract/openapi/
    // paths, both variants), so the body goes out as text/plain and the sandbox refuses it with 400. The contract
    // would need that requestBody inline (`content: application/json: schema: $ref: ...CreatePaymentRequest`) or the
    // bundle to inline requestBodies components for this consumer.
    known: {
      'variant-a': { flow: /create answered 400/ },
      'variant-b': { flow: /create answered 400/ },
    },
  },
  {
    name: 'typed-openapi (its ApiClient, a fetcher of the flow)',
    pkg: 'typed-openapi',
    compile: bundlerStrict,
    async generate(spec, out, _variant, dir) {
      // Note: typed-openapi 2.2.7 joins the working directory and -o, so an absolute -o lands under cwd; pass it relative.
      await run(
        path.join(root, 'node_modules', '.bin', 'typed-openapi'),
        [spec, '-o', path.relative(dir, path.join(out, 'api.ts'))],
        dir,
        180_000,
      );
    },
    // Note: typed-openapi leaves the transport to a Fetcher the user writes (its --default-fetcher is a sample to copy);
    // this one adds the credentials, as its sample's "custom headers" comment suggests.
    flow: (variant) => {
      const p = variant === 'variant-a' ? '' : '/merchant/v1';
      const id = variant === 'variant-a' ? 'id' : 'paymentId';
      return `
import { createApiClient, type Fetcher } from './client/api';
import { AUTH, BASE, BODY, key, report, succeed } from './prelude';
const fetcher: Fetcher = {
  fetch: async (input) => {
    const headers = new Headers(AUTH);
    if (input.urlSearchParams) input.url.search = input.urlSearchParams.toString();
    const parameters = input.parameters as { body?: unknown; header?: Record<string, unknown> } | undefined;
    const body = parameters?.body === undefined ? undefined : JSON.stringify(parameters.body);
    if (body) headers.set('Content-Type', 'application/json');
    for (const [name, value] of Object.entries(parameters?.header ?? {})) if (value != null) headers.set(name, String(value));
    return fetch(input.url, { method: input.method.toUpperCase(), ...(body ? { body } : {}), headers });
  },
};
const api = createApiClient(fetcher, BASE);
function ok<T extends { ok: boolean; status: number }>(name: string, r: T): T {
  if (!r.ok) throw new Error(name + ' answered ' + r.status);
  return r;
}
const created = ok('create', await api.post('${p}/payments', { header: { 'Idempotency-Key': key() }, body: BODY, withResponse: true }));
if (!created.ok) throw new Error();
const id = created.data.data.id;
const retrieved = ok('retrieve', await api.get('${p}/payments/{${id}}', { path: { ${id}: id }, withResponse: true }));
const listed = ok('list', await api.get('${p}/payments', { query: { limit: 10 }, withResponse: true }));
await succeed(id);
const refunded = ok('refund', await api.post('${p}/payments/{${id}}/refund', { path: { ${id}: id }, header: { 'Idempotency-Key': key() }, withResponse: true }));
if (!retrieved.ok || !listed.ok || !refunded.ok) throw new Error();
report({
  create: { status: created.status, id, state: created.data.data.status, amount: created.data.data.requested.amount },
  retrieve: { status: retrieved.status, id: retrieved.data.data.id, state: retrieved.data.data.status },
  list: { status: listed.status, ids: listed.data.data.map((p) => p.id) },
  refund: { status: refunded.status, id: refunded.data.data.id, refunded: refunded.data.data.refunded?.amount },
});
`;
    },
  },
  {
    name: 'orval (fetch client)',
    pkg: 'orval',
    compile: bundlerStrict,
    async generate(spec, out, _variant, dir) {
      // Note: orval's fetch client builds relative URLs unless output.baseUrl is set, so the config names the sandbox.
      const config = {
        matrix: {
          input: { target: spec },
          output: { target: path.join(out, 'api.ts'), client: 'fetch', baseUrl, mode: 'single' },
        },
      };
      writeFileSync(path.join(dir, 'orval.config.cjs'), `module.exports = ${JSON.stringify(config)};\n`);
      await run(path.join(root, 'node_modules', '.bin', 'orval'), ['--config', './orval.config.cjs'], dir, 180_000);
    },
    flow: () => `
import { createPayment, listPayments, refundPayment, retrievePayment } from './client/api';
import { AUTH, BODY, key, report, succeed } from './prelude';
function ok<T extends { status: number }>(name: string, r: T): T {
  if (r.status !== 200) throw new Error(name + ' answered ' + r.status + ' ' + JSON.stringify((r as { data?: unknown }).data));
  return r;
}
const created = ok('create', await createPayment(BODY, { headers: { ...AUTH, 'Idempotency-Key': key() } }));
if (created.status !== 200) throw new Error();
const id = created.data.data.id;
const retrieved = ok('retrieve', await retrievePayment(id, { headers: AUTH }));
const listed = ok('list', await listPayments({ limit: 10 }, { headers: AUTH }));
await succeed(id);
const refunded = ok('refund', await refundPayment(id, { headers: { ...AUTH, 'Idempotency-Key': key() } }));
if (retrieved.status !== 200 || listed.status !== 200 || refunded.status !== 200) throw new Error();
report({
  create: { status: created.status, id, state: created.data.data.status, amount: created.data.data.requested.amount },
  retrieve: { status: retrieved.status, id: retrieved.data.data.id, state: retrieved.data.data.status },
  list: { status: listed.status, ids: listed.data.data.map((p) => p.id) },
  refund: { status: refunded.status, id: refunded.data.data.id, refunded: refunded.data.data.refunded?.amount },
});
`,
  },
  {
    name: 'openapi-zod-client (zodios)',
    pkg: 'openapi-zod-client',
    compile: bundlerStrict,
    async generate(spec, out, _variant, dir) {
      // Note: its output imports @zodios/core, which wants zod 3; the project's zod is 4. openapi-zod-client installs
      // zod 3.25 and @zodios/core under its own node_modules, so the workspace resolves those two there.
      const own = path.join(root, 'node_modules', 'openapi-zod-client', 'node_modules');
      rmSync(path.join(dir, 'node_modules'));
      mkdirSync(path.join(dir, 'node_modules', '@zodios'), { recursive: true });
      symlinkSync(path.join(own, 'zod'), path.join(dir, 'node_modules', 'zod'), 'junction');
      symlinkSync(path.join(own, '@zodios', 'core'), path.join(dir, 'node_modules', '@zodios', 'core'), 'junction');
      for (const name of ['axios', 'tsx']) {
        symlinkSync(path.join(root, 'node_modules', name), path.join(dir, 'node_modules', name), 'junction');
      }
      mkdirSync(out, { recursive: true });
      await run(
        path.join(root, 'node_modules', '.bin', 'openapi-zod-client'),
        [spec, '-o', path.join(out, 'api.ts')],
        dir,
        180_000,
      );
    },
    // Note: zodios answers the parsed body and throws on a status that is not 2xx, so a returned body means 200.
    flow: (variant) => {
      const id = variant === 'variant-a' ? 'id' : 'paymentId';
      return `
import { createApiClient } from './client/api';
import { AUTH, BASE, BODY, key, report, succeed } from './prelude';
const api = createApiClient(BASE, { axiosConfig: { headers: AUTH } });
const created = await api.createPayment(BODY, { headers: { 'Idempotency-Key': key() } });
const id = created.data.id;
const retrieved = await api.retrievePayment({ params: { ${id}: id } });
const listed = await api.listPayments({ queries: { limit: 10 } });
await succeed(id);
const refunded = await api.refundPayment(undefined, { params: { ${id}: id }, headers: { 'Idempotency-Key': key() } });
report({
  create: { status: 200, id, state: created.data.status, amount: created.data.requested.amount },
  retrieve: { status: 200, id: retrieved.data.id, state: retrieved.data.status },
  list: { status: 200, ids: listed.data.map((p) => p.id) },
  refund: { status: 200, id: refunded.data.id, refunded: refunded.data.refunded?.amount },
});
`;
    },
    // openapi-zod-client 1.18.3 turns packages/contract/openapi/components/schemas/ReasonCode.yaml
    // (`type: ['string', 'null']` with `null` among its `enum` values; Variant A's PaymentWithReason.reason_code) into
    // `z.union([z.enum([..., null]), z.null()])`, and `z.enum` takes strings only: TS2769 at that call. Variant B has
    // no such enum in its bundle and compiles. The flow still runs on A (tsx does not type-check), which the flow
    // case shows. The contract would need ReasonCode written as `anyOf: [{ type: string, enum: [...] }, { type: 'null' }]`
    // (null out of the enum), a change for the breaking-change check next session.
    known: { 'variant-a': { compile: /client\/api\.ts\(\d+,\d+\): TS2769 No overload matches this call/ } },
  },
  {
    name: 'kubb (@kubb/cli, plugin-client fetch, plugin-zod)',
    pkg: '@kubb/cli',
    // Note: kubb writes `.ts` import specifiers.
    compile: { ...bundlerStrict, allowImportingTsExtensions: true },
    async generate(spec, out, _variant, dir) {
      writeFileSync(
        path.join(dir, 'kubb.config.mjs'),
        `import { defineConfig } from '@kubb/core';
import { pluginOas } from '@kubb/plugin-oas';
import { pluginTs } from '@kubb/plugin-ts';
import { pluginClient } from '@kubb/plugin-client';
import { pluginZod } from '@kubb/plugin-zod';
export default defineConfig({
  root: '.',
  input: { path: ${JSON.stringify(spec)} },
  output: { path: ${JSON.stringify(out)}, clean: true },
  plugins: [pluginOas(), pluginTs(), pluginClient({ client: 'fetch', baseURL: ${JSON.stringify(baseUrl)} }), pluginZod()],
});
`,
      );
      // Note: DO_NOT_TRACK=1 (set by run) turns kubb's telemetry off.
      await run(
        path.join(root, 'node_modules', '.bin', 'kubb'),
        ['generate', '--config', 'kubb.config.mjs'],
        dir,
        180_000,
      );
    },
    // Note: kubb's generated functions return the body only, whatever the status, so a problem body names the status.
    flow: () => `
import { createPayment, listPayments, refundPayment, retrievePayment } from './client/index.ts';
import { AUTH, BODY, key, report, succeed } from './prelude.ts';
function payment<T>(name: string, body: T): T {
  const data = (body as { data?: { id?: string } }).data;
  if (!data?.id) throw new Error(name + ' answered ' + JSON.stringify(body));
  return body;
}
const created = payment('create', await createPayment(BODY, { 'Idempotency-Key': key() }, { headers: AUTH }));
const id = created.data.id;
const retrieved = payment('retrieve', await retrievePayment(id, { headers: AUTH }));
const listed = await listPayments({ limit: 10 }, { headers: AUTH });
await succeed(id);
const refunded = payment('refund', await refundPayment(id, { 'Idempotency-Key': key() }, { headers: AUTH }));
report({
  create: { status: 200, id, state: created.data.status, amount: created.data.requested.amount },
  retrieve: { status: 200, id: retrieved.data.id, state: retrieved.data.status },
  list: { status: 200, ids: listed.data.map((p) => p.id) },
  refund: { status: 200, id: refunded.data.id, refunded: refunded.data.refunded?.amount },
});
`,
    // kubb 4.39.3's fetch runtime (@kubb/plugin-client/clients/fetch) sends `JSON.stringify(data)` with only the
    // caller's headers, so fetch labels the body text/plain and the sandbox refuses the create: 400 bad_request,
    // 'Header "Content-Type" must be application/json, not text/plain.' The generated createPayment passes no content
    // type either. This is the client runtime, not a construct of the contract as far as observed: the workaround is
    // a Content-Type header in the call's config or a custom client; whether an inline requestBody (instead of
    // components/requestBodies/CreatePayment) changes kubb's output is not checked yet.
    known: {
      'variant-a': { flow: /create answered .*Content-Type\\" must be application\/json, not text\/plain/ },
      'variant-b': { flow: /create answered .*Content-Type\\" must be application\/json, not text\/plain/ },
    },
  },
];

/** The exact version of each generator, as installed from the pinned root devDependencies. */
function version(pkg: string): string {
  return (JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string })
    .version;
}

let sandbox: Sandbox;
let baseUrl: string;

beforeAll(async () => {
  sandbox = createSandbox();
  baseUrl = (await sandbox.listen({ port: 0, host: '127.0.0.1' })).url;
});

afterAll(async () => {
  await sandbox?.close();
});

describe.each(generators.flatMap((g) => bundles.map((b) => ({ ...b, g, label: g.name }))))(
  '$label on $variant',
  ({ g, variant, file }) => {
    let workspace: Workspace;
    let out: string;
    const known = g.known?.[variant];

    beforeAll(async () => {
      workspace = makeWorkspace(`matrix-${g.pkg.replace(/\W+/g, '-')}-${variant}`);
      out = path.join(workspace.dir, 'client');
      writeFileSync(path.join(workspace.dir, 'package.json'), '{ "type": "module" }\n');
      writeFileSync(path.join(workspace.dir, 'prelude.ts'), prelude(variant));
      writeFileSync(path.join(workspace.dir, 'flow.ts'), g.flow(variant));
      await g.generate(file, out, variant, workspace.dir);
      console.log(`${g.pkg} ${version(g.pkg)} on ${variant}: generated into ${out}`);
    });

    afterAll(() => workspace?.remove());

    const compileCase = () => {
      const files = [...tsFiles(out), path.join(workspace.dir, 'flow.ts'), path.join(workspace.dir, 'prelude.ts')];
      return typecheck(files, g.compile!, workspace.dir);
    };

    if (g.compile) {
      if (known?.compile) {
        it(`fails to compile under strict, as known today (${known.compile.source})`, () => {
          const diagnostics = compileCase();
          expect(diagnostics.join('\n'), 'it no longer fails this way: update or remove its `known` entry').toMatch(
            known.compile!,
          );
        });
      } else {
        it('compiles under tsc --strict, with the flow', () => {
          const diagnostics = compileCase();
          expect(diagnostics, `tsc found ${diagnostics.length} problem(s):\n${diagnostics.join('\n')}`).toEqual([]);
        });
      }
    }

    const flow = async (): Promise<FlowResult> => {
      const output = await run(process.execPath, ['--import', 'tsx', 'flow.ts'], workspace.dir, 120_000, {
        BASE_URL: baseUrl,
      });
      const line = output.split('\n').find((l) => l.startsWith('FLOW '));
      if (!line) throw new Error(`the flow printed no result:\n${output}`);
      return JSON.parse(line.slice('FLOW '.length)) as FlowResult;
    };

    if (known?.flow) {
      it(`fails the flow, as known today (${known.flow.source})`, async () => {
        await expect(flow(), 'the flow no longer fails this way: update or remove its `known` entry').rejects.toThrow(
          known.flow!,
        );
      });
    } else {
      it('creates, retrieves, lists and refunds a payment on the sandbox', async () => {
        const r = await flow();
        expect(r.create).toEqual({
          status: 200,
          id: expect.stringMatching(/^pay_/),
          state: 'created',
          amount: '42.50',
        });
        expect(r.retrieve).toEqual({ status: 200, id: r.create.id, state: 'created' });
        expect(r.list.status).toBe(200);
        expect(r.list.ids).toContain(r.create.id);
        expect(r.refund).toEqual({ status: 200, id: r.create.id, refunded: '42.50' });
      });
    }

    it('is pinned exactly in the root devDependencies', () => {
      const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
        devDependencies: Record<string, string>;
      };
      expect(pkg.devDependencies[g.pkg]).toBe(version(g.pkg));
    });
  },
);

/** A Postman request as openapi-to-postmanv2 writes it, as far as the flow touches it. */
interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request: {
    method: string;
    header?: { key: string; value: string }[];
    body?: { mode?: string; raw?: string };
    url: { path?: string[]; variable?: { key: string; value: string }[] };
  };
  event?: { listen: string; script: { exec: string[] } }[];
}

/**
 * openapi-to-postmanv2 and newman: converts the bundle to a collection, takes its create, retrieve, list and refund
 * requests as they are (URL, method, headers, the collection's auth), fills in the body and the variables a user
 * would, puts two control-API requests before the refund, and runs it with newman's API in this process.
 */
async function postmanFlow(
  spec: string,
  dir: string,
): Promise<{ statuses: Record<string, number>; failures: string[] }> {
  const out = path.join(dir, 'collection.json');
  await run(path.join(root, 'node_modules', '.bin', 'openapi2postmanv2'), ['-s', spec, '-o', out, '-p'], dir, 180_000);
  const collection = JSON.parse(readFileSync(out, 'utf8')) as { item: PostmanItem[]; variable?: unknown[] };
  const all = (items: PostmanItem[]): PostmanItem[] => items.flatMap((i) => (i.item ? all(i.item) : [i]));
  const find = (method: string, tail: RegExp) => {
    const found = all(collection.item).find(
      (i) => i.request.method === method && tail.test((i.request.url.path ?? []).join('/')),
    );
    if (!found) throw new Error(`no ${method} ${tail.source} in the collection`);
    return structuredClone(found);
  };
  const withId = (item: PostmanItem) => {
    for (const v of item.request.url.variable ?? []) v.value = '{{paymentId}}';
    for (const h of item.request.header ?? []) if (h.key === 'Idempotency-Key') h.value = '{{$guid}}';
    return item;
  };
  const test = (name: string, extra = '') => [
    {
      listen: 'test',
      script: { exec: [`pm.test('${name} answers 200', () => pm.response.to.have.status(200));`, extra] },
    },
  ];
  const create = withId(find('POST', /payments$/));
  create.request.body = {
    mode: 'raw',
    raw: JSON.stringify({ amount: '42.50', currency: 'EUR', requisite: { type: 'card' } }),
  };
  create.event = test('create', "pm.collectionVariables.set('paymentId', pm.response.json().data.id);");
  const retrieve = withId(find('GET', /payments\/:\w+$/));
  retrieve.event = test(
    'retrieve',
    "pm.test('same id', () => pm.expect(pm.response.json().data.id).to.eql(pm.collectionVariables.get('paymentId')));",
  );
  const list = withId(find('GET', /payments$/));
  list.event = test('list');
  const refund = withId(find('POST', /payments\/:\w+\/refund$/));
  refund.event = test(
    'refund',
    "pm.test('refunded in full', () => pm.expect(pm.response.json().data.refunded.amount).to.eql('42.50'));",
  );
  const force = (status: string): PostmanItem => ({
    name: `force ${status}`,
    request: {
      method: 'POST',
      header: [
        { key: 'Content-Type', value: 'application/json' },
        { key: 'Idempotency-Key', value: '{{$guid}}' },
      ],
      body: { mode: 'raw', raw: JSON.stringify({ status }) },
      url: {
        raw: `{{baseUrl}}/_sandbox/payments/{{paymentId}}/status`,
        host: ['{{baseUrl}}'],
        path: ['_sandbox', 'payments', '{{paymentId}}', 'status'],
      } as PostmanItem['request']['url'],
    },
    event: test(`force ${status}`),
  });
  const runnable = { ...collection, item: [create, retrieve, list, force('pending'), force('succeeded'), refund] };
  // Note: the variables a user sets for the collection's own auth (bearerToken for Variant A, apiKey for Variant B), as
  // an environment, since the collection's own baseUrl variable outranks globals.
  const variables = [
    { key: 'baseUrl', value: baseUrl },
    { key: 'bearerToken', value: 'token-matrix' },
    { key: 'apiKey', value: 'pk_matrix' },
  ];
  const newman = createRequire(import.meta.url)('newman') as {
    run(
      options: object,
      done: (
        error: Error | null,
        summary: {
          run: {
            executions: { item: { name: string }; response?: { code: number } }[];
            failures: { source?: { name?: string }; error: { message: string } }[];
          };
        },
      ) => void,
    ): void;
  };
  const summary = await new Promise<Parameters<Parameters<typeof newman.run>[1]>[1]>((resolve, reject) =>
    newman.run({ collection: runnable, environment: { values: variables }, reporters: [] }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );
  const statuses = Object.fromEntries(summary.run.executions.map((e) => [e.item.name, e.response?.code ?? 0]));
  const failures = summary.run.failures.map((f) => `${f.source?.name}: ${f.error.message}`);
  return { statuses, failures };
}

describe.each(bundles)('openapi-to-postmanv2 with newman on $variant', ({ variant, file }) => {
  let workspace: Workspace;
  beforeAll(() => {
    workspace = makeWorkspace(`matrix-postman-${variant}`);
  });
  afterAll(() => workspace?.remove());

  if (variant === 'variant-a') {
    it('creates, retrieves, lists and refunds a payment on the sandbox', async () => {
      const { statuses, failures } = await postmanFlow(file, workspace.dir);
      expect(failures).toEqual([]);
      expect(Object.values(statuses)).toEqual([200, 200, 200, 200, 200, 200]);
    });
  } else {
    // openapi-to-postmanv2 6.3.3 wires only the first key of Variant B's two-key security requirement
    // (publicKey + secretKey, both apiKey headers): the collection's auth sends X-Public-Key = {{apiKey}} and no
    // X-Secret-Key, so every request is refused 401. The contract would need nothing it can express differently in
    // OpenAPI (the two keys are one requirement); the user adds X-Secret-Key to the collection by hand.
    it('fails the flow, as known today (no X-Secret-Key: the create answers 401)', async () => {
      const { statuses } = await postmanFlow(file, workspace.dir);
      expect(Object.values(statuses)[0], 'the create passes now: move it out of the known failures').toBe(401);
    });
  }

  it('is pinned exactly in the root devDependencies', () => {
    const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect([pkg.devDependencies['openapi-to-postmanv2'], pkg.devDependencies['newman']]).toEqual([
      version('openapi-to-postmanv2'),
      version('newman'),
    ]);
  });
});
