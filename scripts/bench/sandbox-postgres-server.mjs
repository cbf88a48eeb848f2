// A sandbox instance for the bench's postgres section: the built dist's openSandbox, contract validation on as in the
// sandbox section, on the memory store or the postgres store (DATABASE_URL), served over HTTP until SIGTERM.
//   node scripts/bench/sandbox-postgres-server.mjs --port <port> --store memory|postgres [--clock manual|real] [--idle-tenants <n>] [--max-tenants <n>]
// --idle-tenants makes that many tenants, one GET each through the sandbox's fetch, before it listens (the idle-cost
// row: the memory store's tenants can be made no other way; postgres tenants are inserted with SQL by the bench).
// Note: not the `merchant-payments sandbox --store postgres` command, which takes no validators and makes no idle
// tenants; this opens the same openSandbox() with them.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { root } from '../lib/tools.mjs';
import { validatingSandbox } from './sandbox-server.mjs';

const { openSandbox } = await import(pathToFileURL(path.join(root, 'packages/sandbox/dist/src/index.js')).href);
const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    store: { type: 'string' },
    clock: { type: 'string' },
    'idle-tenants': { type: 'string' },
    'max-tenants': { type: 'string' },
  },
});
const { options, how } = await validatingSandbox();
const common = {
  ...options,
  clock: values.clock ?? 'manual',
  seed: 'bench',
  webhookSecret: `whsec_${Buffer.alloc(24, 7).toString('base64')}`,
  // Note: the idle rows hold 30,000 tenants and the scale rows touch 10,000 more, past open mode's default bound; the
  // admission rows seed 100,000 and make more.
  tenants: { max: Number(values['max-tenants'] ?? 100_000) },
};
const sandbox = await openSandbox({ ...common, store: values.store, databaseUrl: process.env.DATABASE_URL });
// Note: through the sandbox's own fetch, not its store's interface, so that this holds whatever shape the stores take.
for (let i = 0; i < Number(values['idle-tenants'] ?? 0); i++) {
  const publicKey = `pk_idle_${i}`;
  const response = await sandbox.fetch(
    new Request('http://sandbox.bench/merchant/v1/balance', {
      headers: { 'x-public-key': publicKey, 'x-secret-key': `sk_${publicKey}` },
    }),
  );
  if (response.status !== 200) throw new Error(`idle tenant ${i}: ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}
const { url } = await sandbox.listen({ port: Number(values.port), host: '127.0.0.1' });
console.log(`listening on ${url} (${values.store} store; ${how})`);
const stop = () => sandbox.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
// Note: the bench holds our stdin; when it dies without stopping us, stdin closes and we go too.
process.stdin.resume();
process.stdin.once('end', stop);
