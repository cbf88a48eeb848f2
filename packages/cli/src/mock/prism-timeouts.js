// @ts-check
// Preloaded with `node --import` into Prism by startPrism: every node:http server Prism creates gets the package's
// time-outs (packages/contract/src/shared/server-timeouts.js), which Prism has no option for. startPrism may pass others as JSON in
// MERCHANT_PAYMENTS_SERVER_TIMEOUTS.
// Note: plain JavaScript, since it loads into a bare `node` (Prism), from src/ as from dist/; Prism (micri) looks up
// http.createServer when it calls it, so replacing the export of the CommonJS module is enough.
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import {
  applyServerTimeouts,
  SERVER_TIMEOUTS_VARIABLE,
} from '@merchant-payments/contract/internal/shared/server-timeouts.js';

const given = process.env[SERVER_TIMEOUTS_VARIABLE];
/** @type {import('@merchant-payments/contract/internal/shared/server-timeouts.js').ServerTimeouts} */
const timeouts = given ? JSON.parse(given) : {};
const create = http.createServer;
http.createServer = /** @type {typeof http.createServer} */ (
  /** @param {any[]} args */
  (...args) => applyServerTimeouts(create(...args), timeouts)
);
syncBuiltinESMExports();
