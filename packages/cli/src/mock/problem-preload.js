// @ts-check
// Preloaded with `node --import` (PROBLEM_PRELOAD) into the mock's Prism (startPrism, not its proxy): a request body that
// is not valid JSON, or is not labelled application/json, gets the contract's 400 problem (application/problem+json,
// code bad_request), as the service and the sandbox answer it. Prism has no option for either:
// - its server (micri) refuses malformed JSON before Prism sees the request, with an answer of its own,
//   `{"error":{"code":"invalid_json",…}}` as application/json, which no operation declares;
// - Prism finds a body of another media type (violation code 415) and answers the operation's 422 example, whose
//   `errors` name a field that may well be right.
// Note: plain JavaScript, since it loads into a bare `node`, from src/ as from dist/. Prism (micri) looks up
// http.createServer when it calls it, so replacing the export of the CommonJS module is enough, as
// server-timeouts-preload.js does; each wraps what it finds, so the two stack.
import http from 'node:http';
import { syncBuiltinESMExports } from 'node:module';

/** The contract's BadRequest answer (its `bad_request` example), with a detail that says what was wrong. */
const badRequest = (/** @type {string} */ detail) =>
  JSON.stringify({
    type: 'https://docs.payments.example/problems/bad_request',
    title: 'Bad request',
    status: 400,
    detail,
    code: 'bad_request',
    request_id: 'req_7Hq2Lm9Xp4Zt',
  });

/** micri's own answer to a body it cannot read: `{"error":{"code":"invalid_json"…` (or `invalid_body`). */
const MICRI_ERROR = /^\{"error":\{"code":"invalid_(json|body)"/;

/** Prism's violation for a request body of a media type the operation does not take. */
const UNSUPPORTED_MEDIA_TYPE = /"code":415\b/;

/**
 * The problem to answer instead of what Prism is about to send, or undefined to let its answer through.
 * @param {http.IncomingMessage} request @param {http.ServerResponse} response @param {string} text
 */
function replacement(request, response, text) {
  if (response.statusCode === 400 && MICRI_ERROR.test(text)) return badRequest('The request body is not valid JSON.');
  if (UNSUPPORTED_MEDIA_TYPE.test(String(response.getHeader('sl-violations') ?? ''))) {
    // The sandbox's own wording (packages/contract/src/validation/request.ts), so the two answer alike.
    const given = request.headers['content-type']?.split(';')[0]?.trim();
    return badRequest(`Header "Content-Type" must be application/json${given ? `, not ${given}` : ' with a body'}.`);
  }
  return undefined;
}

/** @param {http.IncomingMessage} request @param {http.ServerResponse} response */
function answerWithProblem(request, response) {
  const end = response.end;
  /** @type {any} */ (response).end = function (/** @type {any[]} */ ...args) {
    const [chunk] = args;
    const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8', 0, 64) : '';
    const problem = response.headersSent ? undefined : replacement(request, response, text);
    if (problem === undefined) return end.apply(response, /** @type {any} */ (args));
    response.statusCode = 400;
    response.removeHeader('Idempotent-Replayed');
    response.setHeader('Content-Type', 'application/problem+json');
    response.setHeader('Content-Length', Buffer.byteLength(problem));
    return end.apply(response, /** @type {any} */ ([problem]));
  };
}

const create = http.createServer;
http.createServer = /** @type {typeof http.createServer} */ (
  /** @param {any[]} args */
  (...args) => {
    const server = create(...args);
    server.prependListener('request', (request, response) => answerWithProblem(request, response));
    return server;
  }
);
syncBuiltinESMExports();
