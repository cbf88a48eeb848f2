// merchant-payments: the package's commands under one name. The older bins (merchant-payments-sandbox, -mock,
// -conformance) call the same mains. bin/merchant-payments.mjs calls main; tests run this file with tsx.
//   merchant-payments sandbox | mock | conformance | webhook send | webhook listen | webhook secret [flags]
import { PACKAGE_VERSION } from '@merchant-payments/contract/generated/version.js';
import { group, type Subcommand } from './dispatch.js';
import { isEntry, runCommand } from '@merchant-payments/contract/internal/shared/entry.js';

const webhookUsage = `usage: merchant-payments webhook <command> [flags]

Commands:
  send      send a signed example webhook to a receiver and print its answer
  listen    receive deliveries, verify them, print one line each, and forward them to a local URL
  secret    print a new whsec_ signing secret

Run merchant-payments webhook <command> --help for a command's flags. The secret comes from WEBHOOK_SECRET.

Exit codes: 0 success; 1 failure (a delivery was refused or failed, a listener could not start); 2 usage error.`;

const webhookCommands: Record<string, Subcommand> = {
  send: async () => (await import('./webhook/send.js')).main,
  listen: async () => (await import('./webhook/listen.js')).main,
  secret: async () => (await import('./webhook/secret.js')).main,
};

const usage = `usage: merchant-payments <command> [flags]
       merchant-payments --help | --version

Commands:
  sandbox          serve the stateful sandbox of both variants on one port      (alias merchant-payments-sandbox)
  sandbox tenant   create, list, show, rotate or revoke a sandbox's issued tenants (admin API)
  mock             serve the Prism contract mock of Variant A, B or both         (alias merchant-payments-mock)
  conformance      check a running server of one variant against the contract   (alias merchant-payments-conformance)
  webhook send     send a signed example webhook to a receiver
  webhook listen   receive deliveries, verify them, print them, forward them to a local URL
  webhook secret   print a new whsec_ signing secret

Run merchant-payments <command> --help (or merchant-payments webhook <command> --help) for a command's flags.

  --help, -h       print this text
  --version, -V    print the package's version

Environment variables:
  PAYMENTS_ACCESS_TOKEN                      Variant A credentials (conformance, webhook listen --from)
  PAYMENTS_PUBLIC_KEY, PAYMENTS_SECRET_KEY   Variant B credentials (conformance, webhook listen --from)
  WEBHOOK_SECRET                             the whsec_ webhook signing secret (webhook send and listen, sandbox,
                                             conformance)

Exit codes: 0 success; 1 failure (a check failed, a server did not answer or could not start, a delivery was
refused); 2 usage error; with -- <command> (sandbox, mock), that command's code. Each command's --help lists its own.`;

/** Runs `merchant-payments` with `args`, the words after its name. */
export const main = group({
  name: 'merchant-payments',
  usage,
  commands: {
    sandbox: async () => (await import('@merchant-payments/sandbox/internal/cli/command.js')).main,
    mock: async () => (await import('./mock/command.js')).main,
    conformance: async () => (await import('@merchant-payments/conformance/internal/command.js')).main,
    webhook: async () => group({ name: 'merchant-payments webhook', usage: webhookUsage, commands: webhookCommands }),
  },
  extra: (flag) => {
    if (flag !== '--version' && flag !== '-V') return undefined;
    console.log(PACKAGE_VERSION);
    return 0;
  },
});

if (isEntry(import.meta.url)) await runCommand(main);
