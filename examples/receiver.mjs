// A webhook receiver: verifies every delivery with WEBHOOK_SECRET, handles each event once, logs what changed.
// Run it with: WEBHOOK_SECRET=whsec_… node receiver.mjs (PORT picks another port than 3000).
import { createServer } from 'node:http';
import { applyServerTimeouts, createMemoryDedupe, createNodeWebhookHandler } from '@merchant-payments/contract/webhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error('receiver: set WEBHOOK_SECRET to a whsec_ secret (npx merchant-payments webhook secret prints a new one)');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 3000);

const handleWebhook = createNodeWebhookHandler({
  secrets: secret, // or several during a rotation
  // Delivery is at least once. In production claim X-Event-ID in your database (INSERT … ON CONFLICT DO NOTHING).
  dedupe: createMemoryDedupe(),
  onEvent: (event) => console.log(`receiver: ${event.type} ${event.id}: ${event.data.id} is ${event.data.status}`),
  // A rejected delivery is answered 400/401 with the reason as `code`; the detailed error comes here.
  onError: (error, status) => console.error(`receiver: answered ${status}: ${error instanceof Error ? error.message : error}`),
});

// The time-outs close a connection that sends nothing, or sends its request too slowly, within about 10 s.
const server = applyServerTimeouts(createServer((req, res) => {
  if (req.url === '/webhooks') return void handleWebhook(req, res);
  res.writeHead(404).end();
}));
server.listen(port, '127.0.0.1', () => console.log(`receiver: listening on http://127.0.0.1:${port}/webhooks`));
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close());
