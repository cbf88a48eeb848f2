#!/usr/bin/env node
// merchant-payments-conformance: the conformance kit as a command. Its code is src/conformance/command.ts, compiled by npm run build.
import '../dist/src/conformance/command.js';
