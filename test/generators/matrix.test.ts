// The generator matrix: each independent generator reads each variant's bundled spec as a stranger would, its
// TypeScript output must compile under `strict`, and its client must run a merchant's flow against an in-memory
// sandbox on 127.0.0.1: create a payment, retrieve it, list payments, force it to `succeeded` through the control API
// (not the generator's client: the control API is not the subject), and refund it, every answer checked for its status
// and key fields. The Postman collections this package ships run the same flow under newman, and Ajv, with its
// discriminator support on, checks the webhook events the sandbox logs.
//
// docs/generators.md is written from these cases' results (its last case, a file snapshot): `-u` rewrites it, and CI
// fails when it says anything the run did not show.
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
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
  /** Compiler options for the output and the flow. */
  compile: ts.CompilerOptions;
  /** The flow's TypeScript source, run from the workspace with `node --import tsx`; it reads BASE_URL. */
  flow(variant: Variant): string;
  /** What a user of this generator needs to know, for docs/generators.md. */
  notes: string;
  /**
   * What the flow does that the generated client does not, because the tool cannot be served by the contract; the
   * flow runs it, and docs/generators.md gives it as the workaround.
   */
  workaround?: string;
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
/** A payment, as far as the report reads it: every generator's payment type has these fields. */
interface Reported {
  id: string;
  status: string;
  requested: { amount: string };
  refunded?: { amount: string } | null;
}
type Step<T> = [status: number, answer: T | undefined];
/**
 * Prints each step's HTTP status and key fields as the flow's last line. A client that returns bodies only, having
 * thrown on any other status, reports 200.
 */
export function report(steps: { create: Step<Reported>; retrieve: Step<Reported>; list: Step<Reported[]>; refund: Step<Reported> }): void {
  const { create, retrieve, list, refund } = steps;
  console.log('FLOW ' + JSON.stringify({
    create: { status: create[0], id: create[1]?.id, state: create[1]?.status, amount: create[1]?.requested.amount },
    retrieve: { status: retrieve[0], id: retrieve[1]?.id, state: retrieve[1]?.status },
    list: { status: list[0], ids: list[1]?.map((p) => p.id) },
    refund: { status: refund[0], id: refund[1]?.id, refunded: refund[1]?.refunded?.amount },
  }));
}
`;

const generators: Generator[] = [
  {
    name: '@hey-api/openapi-ts (fetch client, zod plugin)',
    pkg: '@hey-api/openapi-ts',
    notes:
      "Output checked as NodeNext. The zod plugin's schemas parse every answer of the flow. Later versions warn on Node 20's engines.",
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
import { zCreatePaymentResponse, zListPaymentsResponse, zRefundPaymentResponse, zRetrievePaymentResponse } from './client/zod.gen.js';
import { AUTH, BASE, BODY, key, report, succeed } from './prelude.js';
client.setConfig({ baseUrl: BASE, headers: AUTH });
const created = await createPayment({ body: BODY, headers: { 'Idempotency-Key': key() } });
if (!created.data) throw new Error('create: ' + created.response.status + ' ' + JSON.stringify(created.error));
zCreatePaymentResponse.parse(created.data);
const id = created.data.data.id;
const path = ${variant === 'variant-a' ? '{ id }' : '{ paymentId: id }'};
const retrieved = await retrievePayment({ path });
const listed = await listPayments({ query: { limit: 10 } });
await succeed(id);
const refunded = await refundPayment({ path, headers: { 'Idempotency-Key': key() } });
// Note: the zod plugin's schemas check every answer, as a user would with its validator option.
zRetrievePaymentResponse.parse(retrieved.data);
zListPaymentsResponse.parse(listed.data);
zRefundPaymentResponse.parse(refunded.data);
report({
  create: [created.response.status, created.data.data],
  retrieve: [retrieved.response.status, retrieved.data?.data],
  list: [listed.response.status, listed.data?.data],
  refund: [refunded.response.status, refunded.data?.data],
});
`,
  },
  {
    name: 'openapi-typescript-codegen (fetch)',
    pkg: 'openapi-typescript-codegen',
    notes:
      "Services return the body and throw `ApiError` on an error status. Called through its `generate()` API: another package's `openapi` bin takes its name in `node_modules/.bin`.",
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
  create: [200, created.data],
  retrieve: [200, retrieved.data],
  list: [200, listed.data],
  refund: [200, refunded.data],
});
`,
  },
  {
    name: 'swagger-typescript-api (fetch)',
    pkg: 'swagger-typescript-api',
    notes:
      'Throws the response on a status that is not ok. It sends a body as JSON only where the request body is written inline in its operation, as the contract writes them.',
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
  create: [created.status, created.data.data],
  retrieve: [retrieved.status, retrieved.data.data],
  list: [listed.status, listed.data.data],
  refund: [refunded.status, refunded.data.data],
});
`,
  },
  {
    name: 'typed-openapi (its ApiClient, a fetcher of the flow)',
    pkg: 'typed-openapi',
    notes:
      "The transport is a `Fetcher` the user writes (its `--default-fetcher` is a sample to copy); the flow's adds the credentials. Its `-o` is joined to the working directory even when absolute: pass a relative path.",
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
  create: [created.status, created.data.data],
  retrieve: [retrieved.status, retrieved.data.data],
  list: [listed.status, listed.data.data],
  refund: [refunded.status, refunded.data.data],
});
`;
    },
  },
  {
    name: 'orval (fetch client)',
    pkg: 'orval',
    notes:
      "Needs `output.baseUrl`: its fetch client builds relative URLs. Versions from 7.14 want Node 22.18 or later. It warns `#/servers/1/variables/base_url must NOT have unevaluated properties` and generates anyway: the schema check it bundles (@apidevtools/swagger-parser) reads the server variable's `description`, a field OpenAPI 3.1 allows, as unevaluated.",
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
  create: [created.status, created.data.data],
  retrieve: [retrieved.status, retrieved.data.data],
  list: [listed.status, listed.data.data],
  refund: [refunded.status, refunded.data.data],
});
`,
  },
  {
    name: 'openapi-zod-client (zodios)',
    pkg: 'openapi-zod-client',
    notes:
      'Its output imports `@zodios/core`, which wants zod 3; zodios parses every answer and throws on a status that is not 2xx.',
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
  create: [200, created.data],
  retrieve: [200, retrieved.data],
  list: [200, listed.data],
  refund: [200, refunded.data],
});
`;
    },
  },
  {
    name: 'kubb (@kubb/cli, plugin-client fetch, plugin-zod)',
    pkg: '@kubb/cli',
    notes:
      'Writes `.ts` import specifiers (`allowImportingTsExtensions`). Its generated functions return the body only. Kubb 5 wants Node 22. Telemetry off with `DO_NOT_TRACK=1`.',
    workaround:
      "Its fetch runtime sends `JSON.stringify(data)` with the caller's headers only, and its generator leaves `Content-Type` out for `application/json` (axios would add it), so a body goes out as `text/plain` and is refused 400. Set the header once, as the flow does: `import { setConfig } from '@kubb/plugin-client/clients/fetch'; setConfig({ headers: { 'Content-Type': 'application/json' } });`.",
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
import { setConfig } from '@kubb/plugin-client/clients/fetch';
import { createPayment, listPayments, refundPayment, retrievePayment } from './client/index.ts';
import { createPayment200Schema, listPayments200Schema, refundPayment200Schema, retrievePayment200Schema } from './client/zod/index.ts';
import { AUTH, BODY, key, report, succeed } from './prelude.ts';
// The workaround (docs/generators.md): kubb's fetch runtime sends no Content-Type of its own.
setConfig({ headers: { 'Content-Type': 'application/json' } });
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
createPayment200Schema.parse(created);
retrievePayment200Schema.parse(retrieved);
listPayments200Schema.parse(listed);
refundPayment200Schema.parse(refunded);
report({
  create: [200, created.data],
  retrieve: [200, retrieved.data],
  list: [200, listed.data],
  refund: [200, refunded.data],
});
`,
  },
];

/** A package's manifest, as installed from the pinned root devDependencies. */
function manifest(pkg: string): { version: string; engines?: { node?: string } } {
  return JSON.parse(readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as {
    version: string;
    engines?: { node?: string };
  };
}
const version = (pkg: string) => manifest(pkg).version;

function expectPinned(...pkgs: string[]) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    devDependencies: Record<string, string>;
  };
  expect(pkgs.map((name) => pkg.devDependencies[name])).toEqual(pkgs.map(version));
}

/** What each case showed, per row of docs/generators.md and variant: only a case that passed writes its cell. */
const results = new Map<string, Partial<Record<Variant, { compiles?: string; flow?: string }>>>();
function record(row: string, variant: Variant, cell: { compiles?: string; flow?: string }) {
  const rows = results.get(row) ?? {};
  rows[variant] = { ...rows[variant], ...cell };
  results.set(row, rows);
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

    it('compiles under tsc --strict, with the flow', () => {
      const files = [...tsFiles(out), path.join(workspace.dir, 'flow.ts'), path.join(workspace.dir, 'prelude.ts')];
      const diagnostics = typecheck(files, g.compile, workspace.dir);
      expect(diagnostics, `tsc found ${diagnostics.length} problem(s):\n${diagnostics.join('\n')}`).toEqual([]);
      record(g.name, variant, { compiles: 'yes' });
    });

    it('creates, retrieves, lists and refunds a payment on the sandbox', async () => {
      const output = await run(process.execPath, ['--import', 'tsx', 'flow.ts'], workspace.dir, 120_000, {
        BASE_URL: baseUrl,
      });
      const line = output.split('\n').find((l) => l.startsWith('FLOW '));
      if (!line) throw new Error(`the flow printed no result:\n${output}`);
      const r = JSON.parse(line.slice('FLOW '.length)) as FlowResult;
      expect(r.create).toEqual({ status: 200, id: expect.stringMatching(/^pay_/), state: 'created', amount: '42.50' });
      expect(r.retrieve).toEqual({ status: 200, id: r.create.id, state: 'created' });
      expect(r.list.status).toBe(200);
      expect(r.list.ids).toContain(r.create.id);
      expect(r.refund).toEqual({ status: 200, id: r.create.id, refunded: '42.50' });
      record(g.name, variant, { flow: g.workaround ? 'pass, with the workaround' : 'pass' });
    });

    it('is pinned exactly in the root devDependencies', () => expectPinned(g.pkg));
  },
);

/** A Postman request as the shipped collection holds it, as far as the flow touches it. */
interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request: { method: string; url: { path?: string[] } };
  event?: { listen: string; script: { exec: string[] } }[];
}

const postmanRow = 'Postman collections of this package (openapi-to-postmanv2, run by newman)';

/**
 * The collection this package ships for the variant (packages/contract/generated/postman), run by newman's API in this
 * process: its create, retrieve, list and refund requests as they are, each with a test of its answer, and two
 * control-API requests before the refund. Only what a user sets is set: the collection's variables of the base URL and
 * the credentials, as an environment.
 */
async function postmanFlow(variant: Variant) {
  const file = path.join(root, 'packages/contract/generated/postman', `${variant}.postman_collection.json`);
  const collection = JSON.parse(readFileSync(file, 'utf8')) as { item: PostmanItem[] };
  const all = (items: PostmanItem[]): PostmanItem[] => items.flatMap((i) => (i.item ? all(i.item) : [i]));
  const find = (method: string, tail: RegExp) => {
    const found = all(collection.item).find(
      (i) => i.request.method === method && tail.test((i.request.url.path ?? []).join('/')),
    );
    if (!found) throw new Error(`no ${method} ${tail.source} in ${file}`);
    return structuredClone(found);
  };
  const withTest = (item: PostmanItem, name: string, extra = '') => {
    item.event = [
      ...(item.event ?? []),
      {
        listen: 'test',
        script: { exec: [`pm.test('${name} answers 200', () => pm.response.to.have.status(200));`, extra] },
      },
    ];
    return item;
  };
  const create = withTest(
    find('POST', /payments$/),
    'create',
    "pm.test('created', () => pm.expect(pm.response.json().data.status).to.eql('created'));",
  );
  const retrieve = withTest(
    find('GET', /payments\/:\w+$/),
    'retrieve',
    "pm.test('same id', () => pm.expect(pm.response.json().data.id).to.eql(pm.collectionVariables.get('paymentId')));",
  );
  const list = withTest(
    find('GET', /payments$/),
    'list',
    "pm.test('lists it', () => pm.expect(pm.response.json().data.map((p) => p.id)).to.include(pm.collectionVariables.get('paymentId')));",
  );
  const refund = withTest(
    find('POST', /payments\/:\w+\/refund$/),
    'refund',
    "pm.test('refunded in full', () => pm.expect(pm.response.json().data.refunded.amount).to.eql(pm.response.json().data.processed.amount));",
  );
  const force = (status: string): PostmanItem =>
    withTest(
      {
        name: `force ${status}`,
        request: {
          method: 'POST',
          header: [
            { key: 'Content-Type', value: 'application/json' },
            { key: 'Idempotency-Key', value: '{{$guid}}' },
            ...(variant === 'variant-b' ? [{ key: 'X-Secret-Key', value: '{{secretKey}}' }] : []),
          ],
          body: { mode: 'raw', raw: JSON.stringify({ status }) },
          url: {
            raw: `{{baseUrl}}/_sandbox/payments/{{paymentId}}/status`,
            host: ['{{baseUrl}}'],
            path: ['_sandbox', 'payments', '{{paymentId}}', 'status'],
          },
        } as PostmanItem['request'],
      },
      `force ${status}`,
    );
  const runnable = { ...collection, item: [create, retrieve, list, force('pending'), force('succeeded'), refund] };
  const variables =
    variant === 'variant-a'
      ? [{ key: 'accessToken', value: 'token-matrix' }]
      : [
          { key: 'publicKey', value: 'pk_matrix' },
          { key: 'secretKey', value: 'sk_matrix' },
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
    newman.run(
      {
        collection: runnable,
        environment: { values: [{ key: 'baseUrl', value: baseUrl }, ...variables] },
        reporters: [],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
  return {
    statuses: summary.run.executions.map((e) => e.response?.code ?? 0),
    failures: summary.run.failures.map((f) => `${f.source?.name}: ${f.error.message}`),
  };
}

describe.each(bundles)('the shipped Postman collection on $variant, run by newman', ({ variant }) => {
  it('creates, retrieves, lists and refunds a payment on the sandbox', async () => {
    const { statuses, failures } = await postmanFlow(variant);
    expect(failures).toEqual([]);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    record(postmanRow, variant, { compiles: 'n/a', flow: 'pass' });
  });

  it('is pinned exactly in the root devDependencies', () => expectPinned('openapi-to-postmanv2', 'newman'));
});

const ajvRow = 'Ajv with its discriminator support on (`discriminator: true`), as Ajv-based tools run it';

describe.each(bundles)('Ajv on the webhook events of $variant', ({ variant, file }) => {
  it('compiles the bundle, and the events the sandbox logs for a payment are valid', async () => {
    const doc = parse(readFileSync(file, 'utf8')) as object;
    const control = parse(readFileSync(path.join(path.dirname(file), 'sandbox.yaml'), 'utf8')) as object;
    const ajv = new Ajv2020({ discriminator: true, strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ $id: 'variant.json', ...doc });
    ajv.addSchema({ $id: 'sandbox.json', ...control });
    const event = ajv.getSchema('variant.json#/components/schemas/WebhookEvent')!;
    const page = ajv.getSchema('sandbox.json#/components/schemas/StatusChangeListResponse')!;

    const a = variant === 'variant-a';
    const auth: Record<string, string> = a
      ? { Authorization: 'Bearer token-ajv' }
      : { 'X-Public-Key': 'pk_ajv', 'X-Secret-Key': 'sk_ajv' };
    const post = (url: string, body: unknown) =>
      fetch(baseUrl + url, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
        body: JSON.stringify(body),
      });
    const created = await post(`${a ? '' : '/merchant/v1'}/payments`, {
      amount: '42.50',
      currency: 'EUR',
      requisite: { type: 'card' },
    });
    expect(created.status).toBe(200);
    const { data } = (await created.json()) as { data: { id: string } };
    for (const status of ['pending', 'succeeded']) {
      expect((await post(`/_sandbox/payments/${data.id}/status`, { status })).status).toBe(200);
    }
    const events = await fetch(`${baseUrl}/_sandbox/events?object_id=${data.id}`, { headers: auth });
    const body = (await events.json()) as { data: { event: { type: string } }[] };
    expect(events.status).toBe(200);
    expect(body.data.length).toBeGreaterThanOrEqual(2);
    expect(page(body), ajv.errorsText(page.errors)).toBe(true);
    for (const entry of body.data) expect(event(entry.event), ajv.errorsText(event.errors)).toBe(true);
    // What the discriminator decides: an unknown type is refused naming the tag.
    expect(event({ ...body.data[0]!.event, type: 'payment.unknown' })).toBe(false);
    record(ajvRow, variant, { compiles: 'n/a', flow: 'pass' });
  });
});

/** docs/generators.md, from what the cases above recorded. */
function renderDoc(): string {
  const rows = [
    ...generators.map((g) => ({
      name: g.name,
      pkg: g.pkg,
      versions: version(g.pkg),
      engines: manifest(g.pkg).engines?.node ?? 'none declared',
      notes: g.notes,
      workaround: g.workaround,
    })),
    {
      name: postmanRow,
      pkg: 'openapi-to-postmanv2',
      versions: `${version('openapi-to-postmanv2')} + ${version('newman')}`,
      engines: `${manifest('openapi-to-postmanv2').engines?.node} / ${manifest('newman').engines?.node}`,
      notes:
        "The collections are converted from the bundled specs, then finished where the converter leaves work to the user: Variant B's `X-Secret-Key` on every request (the converter wires only the first key of the one requirement), a new `Idempotency-Key` per send, the created id kept for the next requests, the spec's examples as bodies.",
      workaround: undefined,
    },
    {
      name: ajvRow,
      pkg: 'ajv',
      versions: version('ajv'),
      engines: manifest('ajv').engines?.node ?? 'none declared',
      notes:
        "Compiles each bundle and validates the events `GET /_sandbox/events` answers for a payment, and their page against the control API's schema. WebhookEvent tells its branches apart by their own `type` const; Ajv refuses a discriminator `mapping`.",
      workaround: undefined,
    },
  ];
  const cell = (name: string, variant: Variant, key: 'compiles' | 'flow') =>
    results.get(name)?.[variant]?.[key] ?? 'not run';
  const table = rows.map(
    (r) =>
      `| ${r.name} | ${r.versions} | ${r.engines} | ${cell(r.name, 'variant-a', 'compiles')} / ${cell(r.name, 'variant-b', 'compiles')} | ${cell(r.name, 'variant-a', 'flow')} / ${cell(r.name, 'variant-b', 'flow')} |`,
  );
  const notes = rows.map(
    (r) => `- **${r.name}**: ${r.notes}${r.workaround ? `\n\n  **Workaround**: ${r.workaround}` : ''}`,
  );
  return `# Generating a client with another tool

<!-- Written by test/generators/matrix.test.ts from its own results; do not edit. To rewrite it:
npx vitest run --project processes test/generators/matrix.test.ts -u -->

The package's own clients (\`createVariantAClient\`, \`createVariantBClient\`) are typed from the contract, but the
bundled specs are written to be read by whatever generator a team already runs. Each generator below reads the bundled spec of each
variant (\`@merchant-payments/contract/openapi/variant-a.yaml\` and \`variant-b.yaml\`) as it is; its TypeScript
output is compiled with \`strict\`, and its client runs a merchant's flow against the sandbox: create a payment,
retrieve it, list payments, force it to \`succeeded\` through the control API, and refund it, each answer's status and
key fields checked. The versions are pinned in the project's \`devDependencies\`; this page is written by that test
from what it saw, so it changes when a result does.

| generator | version | engines (Node) | compiles (A / B) | flow (A / B) |
|---|---|---|---|---|
${table.join('\n')}

## Notes and workarounds

${notes.join('\n')}

## The Postman collections

The package ships a collection per variant, made from the bundled specs:
\`node_modules/@merchant-payments/contract/generated/postman/variant-a.postman_collection.json\` and
\`variant-b.postman_collection.json\` (exported as \`@merchant-payments/contract/postman/variant-a.postman_collection.json\`
and \`…/variant-b.postman_collection.json\`). In Postman, **Import** the file; then, in the collection's
**Variables**, set \`baseUrl\` (the local sandbox, \`http://127.0.0.1:4020\`, until you change it) and the credentials:
\`accessToken\` for Variant A, \`publicKey\` and \`secretKey\` for Variant B. Each create keeps the id it answers
(\`paymentId\`, \`payoutId\`, \`appealId\`) for the requests on that object, and each request sends a new
\`Idempotency-Key\`. With newman:

\`\`\`sh
npx newman run node_modules/@merchant-payments/contract/generated/postman/variant-a.postman_collection.json --folder Payments \\
  --env-var baseUrl=http://127.0.0.1:4020 --env-var accessToken=tok_sandbox
\`\`\`
`;
}

describe('docs/generators.md', () => {
  it('is the matrix these cases showed', async () => {
    await expect(renderDoc()).toMatchFileSnapshot(path.join(root, 'docs/generators.md'));
  });
});
