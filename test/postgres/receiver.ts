// A webhook receiver in a process of its own, for dedupe.test.ts: createNodeWebhookHandler with createPostgresDedupe
// on DATABASE_URL, on 127.0.0.1 port 0. Prints `listening <port>`; each onEvent records the event in `events_handled`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createNodeWebhookHandler, createPostgresDedupe } from '../../packages/contract/src/webhooks/index.js';
import { at, SECRET, T0 } from '../webhooks/fixtures.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
const handle = createNodeWebhookHandler({
  secrets: SECRET,
  now: at(T0),
  dedupe: createPostgresDedupe(pool),
  onEvent: async (_event, { id }) => {
    await pool.query('INSERT INTO events_handled (event_id, pid) VALUES ($1, $2)', [id, process.pid]);
  },
  onError: (error, status) =>
    process.stderr.write(`${status} ${error instanceof Error ? error.stack : String(error)}\n`),
});
const server = createServer((req, res) => void handle(req, res));
server.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`));
