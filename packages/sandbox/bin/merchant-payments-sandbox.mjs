#!/usr/bin/env node
// merchant-payments-sandbox: the sandbox's command, also `merchant-payments sandbox` (src/cli/command.ts, compiled by npm run build).
import { runCommand } from '@merchant-payments/contract/internal/shared/entry.js';
import { main } from '../dist/src/cli/command.js';

await runCommand(main);
