// @ts-check
// Preloaded with `node --import` (SERVER_TIMEOUTS_PRELOAD) into a process whose servers take no time-out options, such
// as Prism (the CLI's startPrism): every node:http server it creates gets the time-outs of server-timeouts.js, or those
// passed as JSON in MERCHANT_PAYMENTS_SERVER_TIMEOUTS.
// Note: plain JavaScript, since it loads into a bare `node`, from src/ as from dist/, beside the module it imports;
// Prism (micri) looks up http.createServer when it calls it, so replacing the export of the CommonJS module is enough.
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { applyServerTimeouts, SERVER_TIMEOUTS_VARIABLE } from './server-timeouts.js';

const given = process.env[SERVER_TIMEOUTS_VARIABLE];
/** @type {import('./server-timeouts.js').ServerTimeouts} */
const timeouts = given ? JSON.parse(given) : {};
const create = http.createServer;
http.createServer = /** @type {typeof http.createServer} */ (
  /** @param {any[]} args */
  (...args) => applyServerTimeouts(create(...args), timeouts)
);
syncBuiltinESMExports();
