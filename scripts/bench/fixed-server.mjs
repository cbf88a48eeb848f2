// The ceiling of the sandbox section's HTTP rows: client.mjs's bare node:http server, which reads each request and
// answers one fixed payment, with no routing, state or validation, as a child process. What it reaches is what any
// Node server can reach on this machine under the same load generator.
//   node scripts/bench/fixed-server.mjs --port <port>      serve until SIGTERM, or until the bench's pipe closes
import { parseArgs } from 'node:util';
import { startServer } from './client.mjs';

const { values } = parseArgs({ options: { port: { type: 'string' } } });
const server = await startServer({ port: Number(values.port) });
console.log(`listening on ${server.url}`);
const stop = () => server.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
process.stdin.resume();
process.stdin.once('end', stop);
