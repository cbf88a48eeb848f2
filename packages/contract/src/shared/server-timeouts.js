// @ts-check
// Time-outs of a node:http server, shared by every server this package starts or shows (the sandbox, webhook listen,
// the Prism mock through a preload, the receivers in examples/): a peer that sends nothing, headers that trickle and a
// slow body are cut within about a second of their time-out, and an idle keep-alive connection is closed.
// Note: plain JavaScript because its preload (server-timeouts-preload.js) imports it into a bare `node`.

/**
 * @typedef {object} ServerTimeouts
 * @property {number} [headersTimeoutMs] how long a connection has to send a request's headers, counted from when it
 *   opens or from its request's first byte (default 10 000)
 * @property {number} [requestTimeoutMs] how long a request may take to arrive in full, headers and body (default 30 000)
 * @property {number} [keepAliveTimeoutMs] how long an idle keep-alive connection is kept after an answer (default 5 000)
 */

/** The time-outs applyServerTimeouts uses when given none. */
export const DEFAULT_SERVER_TIMEOUTS = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
});

/** The variable a process's starter passes time-outs to the preload in, as JSON (server-timeouts-preload.js). */
export const SERVER_TIMEOUTS_VARIABLE = 'MERCHANT_PAYMENTS_SERVER_TIMEOUTS';

/**
 * The URL of the preload (`node --import`) that applies these time-outs to every server a process creates; beside this
 * file in src/ as in dist/, so a child started from either finds it.
 */
export const SERVER_TIMEOUTS_PRELOAD = new URL('./server-timeouts-preload.js', import.meta.url).href;

/** Node checks headersTimeout and requestTimeout on a timer (every 30 s by default); this is how often it does here. */
const CHECK_EVERY_MS = 1000;
const SILENT = Symbol('silent connection timer');

/**
 * Applies `timeouts` to `server` before it listens, and closes a connection that sends no request within the headers
 * time-out (Node's own headersTimeout counts only from a request's first byte, so a silent peer would hold its socket
 * for good). Returns the server. Throws a RangeError naming the option when a time-out is not a whole number of ms
 * above 0, or when the headers time-out exceeds the request time-out.
 * @template {import('node:http').Server} S
 * @param {S} server
 * @param {ServerTimeouts} [timeouts]
 * @returns {S}
 */
export function applyServerTimeouts(server, timeouts = {}) {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = {
    ...DEFAULT_SERVER_TIMEOUTS,
    ...definedOnly(timeouts),
  };
  for (const [name, value] of Object.entries({ headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs })) {
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new RangeError(`${name} must be a whole number of milliseconds above 0, got ${String(value)}.`);
  }
  if (headersTimeoutMs > requestTimeoutMs)
    throw new RangeError(
      `headersTimeoutMs (${headersTimeoutMs}) must not exceed requestTimeoutMs (${requestTimeoutMs}).`,
    );
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = requestTimeoutMs;
  server.keepAliveTimeout = keepAliveTimeoutMs;
  // Note: read when the server starts listening, so it must be set before listen(); @types/node has it as an option
  // of createServer only.
  /** @type {{ connectionsCheckingInterval: number }} */ (/** @type {unknown} */ (server)).connectionsCheckingInterval =
    Math.min(CHECK_EVERY_MS, headersTimeoutMs);
  server.on('connection', (socket) => {
    const timer = setTimeout(() => socket.destroy(), headersTimeoutMs);
    timer.unref();
    Object.defineProperty(socket, SILENT, { value: timer, configurable: true });
    socket.once('close', () => clearTimeout(timer));
  });
  // Note: once a request has arrived, Node's own time-outs (and keepAliveTimeout between requests) take over; a
  // handler that takes longer than the headers time-out to answer must not lose its connection.
  server.on('request', (req) => clearTimeout(/** @type {any} */ (req.socket)[SILENT]));
  // Note: an upgrade (the sandbox's webhook listener) never emits 'request', and its socket lives as long as the peer.
  server.on('upgrade', (req) => clearTimeout(/** @type {any} */ (req.socket)[SILENT]));
  return server;
}

/**
 * `timeouts` without the members that are undefined, so that they take their defaults.
 * @param {ServerTimeouts} timeouts
 */
function definedOnly(timeouts) {
  return Object.fromEntries(Object.entries(timeouts).filter(([, value]) => value !== undefined));
}
