#!/usr/bin/env node
// merchant-payments-conformance: the kit's command, also `merchant-payments conformance` (src/command.ts, compiled by npm run build).
import { runCommand } from '@merchant-payments/contract/internal/shared/entry.js';
import { main } from '../dist/src/command.js';

await runCommand(main);
