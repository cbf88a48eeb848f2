// A sandbox instance for the bench's postgres section: the built dist's openSandbox, contract validation on as in the
// sandbox section, on the memory store or the postgres store (DATABASE_URL), served over HTTP until SIGTERM.
//   node scripts/bench/sandbox-postgres-server.mjs --port <port> --store memory|postgres [--clock manual|real] [--idle-tenants <n>]
// --idle-tenants makes that many tenants through the store before it listens (the idle-cost row: with the memory store
// that is the only way to have them; postgres tenants are inserted with SQL by the bench instead).
// Note: not the `merchant-payments sandbox --store postgres` command, which takes no validators and makes no idle
// tenants; this opens the same openSandbox() with them (or, on a dist without it, createSandbox with a store factory).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { root } from '../lib/tools.mjs';
import { validatingSandbox } from './sandbox-server.mjs';

/** A TenantStore over one that is still being made; every call waits for it, so a failed start fails each call. */
function pendingStore(made) {
  return {
    transaction: (tenant, work) => made.then((store) => store.transaction(tenant, work)),
    dueTenants: (wallNow) => made.then((store) => store.dueTenants(wallNow)),
    reset: (tenant) => made.then((store) => store.reset(tenant)),
    close: () => made.then((store) => store.close(), () => undefined),
  };
}

/**
 * openSandbox() where the built dist has it; else createSandbox() with a store factory that hands it a postgres store
 * still migrating, awaited before the sandbox serves (the dist of a tree from before `--store postgres`).
 */
async function open() {
  const dist = (file) => import(pathToFileURL(path.join(root, 'dist/src/sandbox', file)).href);
  // Note: from its module, since the package entry may not export openSandbox yet.
  const { openSandbox, createSandbox } = await dist('create-sandbox.js');
  if (openSandbox) return openSandbox({ ...common, store: values.store, databaseUrl: process.env.DATABASE_URL });
  if (values.store === 'memory') return createSandbox(common);
  const { createPostgresStore } = await dist('stores/postgres/index.js');
  let made;
  const sandbox = createSandbox({ ...common, store: (settings) => pendingStore((made = createPostgresStore({ ...settings, connectionString: process.env.DATABASE_URL }))) });
  await made;
  return sandbox;
}

const { values } = parseArgs({ options: { port: { type: 'string' }, store: { type: 'string' }, clock: { type: 'string' }, 'idle-tenants': { type: 'string' } } });
const { options, how } = await validatingSandbox();
const common = { ...options, clock: values.clock ?? 'manual', seed: 'bench', webhookSecret: `whsec_${Buffer.alloc(24, 7).toString('base64')}` };
const sandbox = await open();
for (let i = 0; i < Number(values['idle-tenants'] ?? 0); i++) await sandbox.store.transaction(`idle_${i}`, () => undefined);
const { url } = await sandbox.listen({ port: Number(values.port), host: '127.0.0.1' });
console.log(`listening on ${url} (${values.store} store; ${how})`);
const stop = () => sandbox.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// Note: the bench holds our stdin; when it dies without stopping us, stdin closes and we go too.
process.stdin.resume();
process.stdin.once('end', stop);
