#!/usr/bin/env node
// Sends a signed example webhook, built from the contract's named examples, and prints the receiver's answer.
//   npm run webhook:send -- --url <receiver> --secret <whsec_…> [--type payment.status_changed] [--layout later|earlier]
//                           [--id <event id>]
// The secret may come from WEBHOOK_SECRET instead of --secret (keeps it out of shell history).
import { register } from 'node:module';
import { parseArgs } from 'node:util';

const usage =
  'usage: npm run webhook:send -- --url <receiver> --secret <whsec_…> [--type <event type>] [--layout later|earlier] [--id <event id>]';

let args;
try {
  ({ values: args } = parseArgs({
    options: {
      url: { type: 'string' },
      secret: { type: 'string' },
      type: { type: 'string' },
      layout: { type: 'string', default: 'later' },
      id: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  console.error(`webhook:send: ${error.message}\n${usage}`);
  process.exit(2);
}
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const secret = args.secret ?? process.env.WEBHOOK_SECRET;
if (!args.url || !secret) {
  console.error(`webhook:send: --url and --secret (or WEBHOOK_SECRET) are required\n${usage}`);
  process.exit(2);
}
if (args.layout !== 'later' && args.layout !== 'earlier') {
  console.error(`webhook:send: --layout must be "later" or "earlier"\n${usage}`);
  process.exit(2);
}

// Note: the sender is TypeScript in src/; these hooks transpile it on the fly, so no build step or extra tool is needed.
register('./lib/typescript-hooks.mjs', import.meta.url);
const { sendWebhookExample } = await import('../src/webhooks/send.ts');

try {
  const result = await sendWebhookExample({ url: args.url, secret, type: args.type, layout: args.layout, id: args.id });
  console.log(`sent ${result.event.type} ${result.event.id} (${args.layout} layout) to ${args.url}`);
  console.log(`status: ${result.status}`);
  console.log(`body: ${result.body}`);
  process.exit(result.status >= 200 && result.status < 300 ? 0 : 1);
} catch (error) {
  console.error(`webhook:send: ${error instanceof Error ? error.message : String(error)}`);
  if (error?.cause) console.error(`  cause: ${error.cause.message ?? error.cause}`);
  process.exit(1);
}
