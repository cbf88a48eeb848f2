#!/usr/bin/env node
// Sends a signed example webhook, built from the contract's named examples, and prints the receiver's answer.
// Bounded like a real delivery: a time-out, a cap on the answer's size, and no redirects.
import { register } from 'tsx/esm/api';

// Note: the flag parser and the sender are TypeScript in src/; tsx's loader runs them as they are, so no build step
// is needed.
register();
const { parseFlags } = await import('../src/cli/parse-flags.ts');

const usage = `usage: npm run webhook:send -- --url <receiver> [--type <event type>] [--layout later|earlier] [--id <event id>]
                            [--timeout-ms <ms>] [--max-response-bytes <bytes>]

The secret comes from WEBHOOK_SECRET only (a flag would end up in shell history and CI logs).
  --timeout-ms <ms>              how long the receiver may take to answer in full (default 10000)
  --max-response-bytes <bytes>   how much of the answer is read before giving up (default 65536)
Redirects are not followed: a 3xx answer is a failure.

Exit codes: 0 the receiver answered 2xx; 1 it answered otherwise, or the delivery failed (time-out, answer too
large, redirect, network); 2 usage error.`;

function usageError(message) {
  console.error(`webhook:send: ${message}\n${usage}`);
  process.exit(2);
}

const args = parseFlags({
  name: 'webhook:send',
  usage,
  options: {
    url: { type: 'string' },
    type: { type: 'string' },
    layout: { type: 'string', default: 'later' },
    id: { type: 'string' },
    'timeout-ms': { type: 'string' },
    'max-response-bytes': { type: 'string' },
  },
});
const secret = process.env.WEBHOOK_SECRET;
if (!args.url || !secret) usageError('--url and the WEBHOOK_SECRET environment variable are required');
if (args.layout !== 'later' && args.layout !== 'earlier') usageError('--layout must be "later" or "earlier"');
const number = (flag) => (args[flag] === undefined ? undefined : Number(args[flag]));

const { sendWebhookExample } = await import('../src/webhooks/send.ts');
const { WebhookSendError } = await import('../src/webhooks/send-error.ts');

try {
  const result = await sendWebhookExample({
    url: args.url,
    secret,
    type: args.type,
    layout: args.layout,
    id: args.id,
    timeoutMs: number('timeout-ms'),
    maxResponseBytes: number('max-response-bytes'),
  });
  console.log(`sent ${result.event.type} ${result.event.id} (${args.layout} layout) to ${args.url}`);
  console.log(`status: ${result.status}`);
  console.log(`body: ${result.body}`);
  process.exit(result.status >= 200 && result.status < 300 ? 0 : 1);
} catch (error) {
  if (error instanceof WebhookSendError) {
    console.error(`webhook:send: ${error.reason}: ${error.message}`);
    process.exit(1);
  }
  // Note: options the sender refuses before sending anything (bad URL, secret, type or limit) are usage errors.
  if (error instanceof TypeError || error instanceof RangeError) usageError(error.message);
  console.error(`webhook:send: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
