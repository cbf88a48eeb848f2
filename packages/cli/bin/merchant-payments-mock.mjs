#!/usr/bin/env node
// merchant-payments-mock: an alias of `merchant-payments mock`, the same code (src/mock/command.ts, compiled by npm run build).
import { runCommand } from '@merchant-payments/contract/internal/shared/entry.js';
import { main } from '../dist/src/mock/command.js';

await runCommand(main);
