#!/usr/bin/env node
// merchant-payments-conformance: an alias of `merchant-payments conformance`, the same code (src/conformance/command.ts, compiled by npm run build).
import { runCommand } from '../dist/src/cli/entry.js';
import { main } from '../dist/src/conformance/command.js';

await runCommand(main);
