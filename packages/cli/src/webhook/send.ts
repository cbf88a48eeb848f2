// merchant-payments webhook send: sends a signed example webhook, built from the contract's named examples, and prints
// the receiver's answer. Bounded like a real delivery: a time-out, a cap on the answer's size, and no redirects.
import { sendWebhookExample } from '@merchant-payments/contract/internal/webhooks/send.js';
import { WebhookSendError } from '@merchant-payments/contract/internal/webhooks/send-error.js';
import type { WebhookEventType } from '@merchant-payments/contract/internal/webhooks/types.js';
import { parseFlags } from '@merchant-payments/contract/internal/shared/parse-flags.js';

const NAME = 'merchant-payments webhook send';
const SECRET_VARIABLE = 'WEBHOOK_SECRET';
const usage = `usage: merchant-payments webhook send --url <receiver> [--type <event type>] [--layout later|earlier] [--id <event id>]
                                     [--timeout-ms <ms>] [--max-response-bytes <bytes>]

Sends one example delivery from the contract, signed with the secret in ${SECRET_VARIABLE}, and prints what the
receiver answered.

  --url <receiver>               the receiver's absolute http(s) URL (required)
  --type <event type>            payment.status_changed (default), payout.status_changed or appeal.status_changed
  --layout later|earlier         the delivery layout (default later; earlier has no X-Timestamp)
  --id <event id>                replace the example's event id (X-Event-ID and the body's id), e.g. to test
                                 de-duplication by sending the same id twice
  --timeout-ms <ms>              how long the receiver may take to answer in full (default 10000)
  --max-response-bytes <bytes>   how much of the answer is read before giving up (default 65536)
Redirects are not followed: a 3xx answer is a failure.

The secret comes from ${SECRET_VARIABLE} only (a flag would end up in shell history and CI logs); make one with:
merchant-payments webhook secret

Exit codes: 0 the receiver answered 2xx; 1 it answered otherwise, or the delivery failed (time-out, answer too
large, redirect, network); 2 usage error.`;

function usageError(message: string): never {
  console.error(`${NAME}: ${message}\n${usage}`);
  process.exit(2);
}

/** Sends with `args`, the words after `webhook send`; resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  const flags = parseFlags({
    name: NAME,
    usage,
    args,
    options: {
      url: { type: 'string' },
      type: { type: 'string' },
      layout: { type: 'string', default: 'later' },
      id: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'max-response-bytes': { type: 'string' },
    },
  });
  const secret = process.env[SECRET_VARIABLE];
  if (!flags.url || !secret) usageError(`--url and the ${SECRET_VARIABLE} environment variable are required`);
  if (flags.layout !== 'later' && flags.layout !== 'earlier') usageError('--layout must be "later" or "earlier"');
  const number = (flag: 'timeout-ms' | 'max-response-bytes') =>
    flags[flag] === undefined ? undefined : Number(flags[flag]);
  try {
    const result = await sendWebhookExample({
      url: flags.url,
      secret,
      // Note: an unknown type is refused by the sender with the list of known ones, as a usage error below.
      type: flags.type as WebhookEventType | undefined,
      layout: flags.layout,
      id: flags.id,
      timeoutMs: number('timeout-ms'),
      maxResponseBytes: number('max-response-bytes'),
    });
    console.log(`sent ${result.event.type} ${result.event.id} (${flags.layout} layout) to ${shown(flags.url)}`);
    console.log(`status: ${result.status}`);
    console.log(`body: ${result.body}`);
    return result.status >= 200 && result.status < 300 ? 0 : 1;
  } catch (error) {
    if (error instanceof WebhookSendError) {
      console.error(`${NAME}: ${error.reason}: ${error.message}`);
      return 1;
    }
    // Note: options the sender refuses before sending anything (bad URL, secret, type or limit) are usage errors.
    if (error instanceof TypeError || error instanceof RangeError) usageError(error.message);
    console.error(`${NAME}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** The receiver's URL as printed: a query string may carry a token, so only its presence is shown. */
function shown(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
}
