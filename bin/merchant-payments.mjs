#!/usr/bin/env node
// merchant-payments: the package's commands under one name. Its code is src/cli/main.ts, compiled by npm run build.
import { runCommand } from '../dist/src/cli/entry.js';
import { main } from '../dist/src/cli/main.js';

await runCommand(main);
