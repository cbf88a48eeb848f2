#!/usr/bin/env node
// merchant-payments-mock: the contract mock as a command. Its code is src/mock/command.ts, compiled by npm run build.
import '../dist/src/mock/command.js';
