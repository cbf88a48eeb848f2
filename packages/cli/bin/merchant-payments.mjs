#!/usr/bin/env node
// merchant-payments: the commands of every package under one name. Its code is src/main.ts, compiled by npm run build.
import { runCommand } from '@merchant-payments/contract/internal/shared/entry.js';
import { main } from '../dist/src/main.js';

await runCommand(main);
