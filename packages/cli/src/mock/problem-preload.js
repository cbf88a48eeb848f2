// @ts-check
// Preloaded with `node --import` (PROBLEM_PRELOAD) into the mock's Prism (startPrism, not its proxy): a request body that
// is not valid JSON gets the contract's 400 problem (application/problem+json, code bad_request), as the service
// answers it. Prism's server (micri) refuses such a body before Prism sees the request, with an answer of its own,
// `{"error":{"code":"invalid_json",…}}` as application/json, which no operation declares; Prism has no option for it.
// Note: plain JavaScript, since it loads into a bare `node`, from src/ as from dist/. Prism (micri) looks up
// http.createServer when it calls it, so replacing the export of the CommonJS module is enough, as
// server-timeouts-preload.js does; each wraps what it finds, so the two stack.
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';

/** The contract's BadRequest answer (its `bad_request` example, with a detail that says what was wrong). */
const BAD_REQUEST = JSON.stringify({
  type: 'https://docs.payments.example/problems/bad_request',
  title: 'Bad request',
  status: 400,
  detail: 'The request body is not valid JSON.',
  code: 'bad_request',
  request_id: 'req_7Hq2Lm9Xp4Zt',
});

/** micri's own answer to a body it cannot read: `{"error":{"code":"invalid_json"…` (or `invalid_body`). */
const MICRI_ERROR = /^\{"error":\{"code":"invalid_(json|body)"/;

/** @param {http.ServerResponse} response */
function answerWithProblem(response) {
  const end = response.end;
  /** @type {any} */ (response).end = function (/** @type {any[]} */ ...args) {
    const [chunk] = args;
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8', 0, 64) : '';
    if (response.statusCode !== 400 || response.headersSent || !MICRI_ERROR.test(text))
      return end.apply(response, /** @type {any} */ (args));
    response.setHeader('Content-Type', 'application/problem+json');
    response.setHeader('Content-Length', Buffer.byteLength(BAD_REQUEST));
    return end.apply(response, /** @type {any} */ ([BAD_REQUEST]));
  };
}

const create = http.createServer;
http.createServer = /** @type {typeof http.createServer} */ (
  /** @param {any[]} args */
  (...args) => {
    const server = create(...args);
    server.prependListener('request', (_request, response) => answerWithProblem(response));
    return server;
  }
);
syncBuiltinESMExports();
