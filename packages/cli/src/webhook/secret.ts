// merchant-payments webhook secret: prints a new whsec_ secret, and nothing else, so that it can be captured with $(…).
import { generateWebhookSecret } from '@merchant-payments/contract/internal/webhooks/secret.js';
import { parseFlags } from '@merchant-payments/contract/internal/shared/parse-flags.js';

const usage = `usage: merchant-payments webhook secret

Prints a new webhook signing secret (whsec_ and 24 random bytes in base64) on stdout, and nothing else. Keep it out
of shell history and logs; for example: export WEBHOOK_SECRET="$(npx merchant-payments webhook secret)"

Exit codes: 0 printed; 2 usage error.`;

/** Prints a new secret; `args` are the words after `webhook secret` (only --help is taken). */
export async function main(args: string[]): Promise<number> {
  parseFlags({ name: 'merchant-payments webhook secret', usage, args, options: {} });
  console.log(generateWebhookSecret());
  return 0;
}
