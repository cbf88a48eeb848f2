#!/usr/bin/env node
// merchant-payments-sandbox: an alias of `merchant-payments sandbox`, the same code (src/sandbox/cli/command.ts, compiled by npm run build).
import { runCommand } from '../dist/src/cli/entry.js';
import { main } from '../dist/src/sandbox/cli/command.js';

await runCommand(main);
