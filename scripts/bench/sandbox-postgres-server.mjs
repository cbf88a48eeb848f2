// A sandbox instance for the bench's postgres section: the built dist's openSandbox, contract validation on as in the
// sandbox section, on the memory store or the postgres store (DATABASE_URL), served over HTTP until SIGTERM.
//   node scripts/bench/sandbox-postgres-server.mjs --port <port> --store memory|postgres [--clock manual|real] [--idle-tenants <n>]
// --idle-tenants makes that many tenants through the store before it listens (the idle-cost row: with the memory store
// that is the only way to have them; postgres tenants are inserted with SQL by the bench instead).
// Note: not the `merchant-payments sandbox --store postgres` command, which takes no validators and makes no idle
// tenants; this opens the same openSandbox() with them.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { root } from '../lib/tools.mjs';
import { validatingSandbox } from './sandbox-server.mjs';

const { openSandbox } = await import(pathToFileURL(path.join(root, 'dist/src/sandbox/index.js')).href);
const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    store: { type: 'string' },
    clock: { type: 'string' },
    'idle-tenants': { type: 'string' },
  },
});
const { options, how } = await validatingSandbox();
const common = {
  ...options,
  clock: values.clock ?? 'manual',
  seed: 'bench',
  webhookSecret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
  // Note: the idle rows hold 30,000 tenants, past open mode's default bound of 10,000.
  tenants: { max: 100_000 },
};
const sandbox = await openSandbox({ ...common, store: values.store, databaseUrl: process.env.DATABASE_URL });
for (let i = 0; i < Number(values['idle-tenants'] ?? 0); i++)
  await sandbox.store.transaction(`idle_${i}`, () => undefined);
const { url } = await sandbox.listen({ port: Number(values.port), host: '127.0.0.1' });
console.log(`listening on ${url} (${values.store} store; ${how})`);
const stop = () => sandbox.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// Note: the bench holds our stdin; when it dies without stopping us, stdin closes and we go too.
process.stdin.resume();
process.stdin.once('end', stop);
