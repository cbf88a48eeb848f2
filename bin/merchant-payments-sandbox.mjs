#!/usr/bin/env node
// merchant-payments-sandbox: the stateful sandbox as a command. Its code is src/sandbox/command.ts, compiled by npm run build.
import '../dist/src/sandbox/command.js';
