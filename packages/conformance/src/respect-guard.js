// @ts-check
// Preloaded with `node --import` into the Redocly Respect child of the flows stage. Respect's fetch follows every
// redirect with the step's headers (Variant B's X-Public-Key and X-Secret-Key, a POST's body), so this module lets the
// child open connections to one origin only, the --base-url's, named in CONFORMANCE_RESPECT_ORIGIN: any other
// connection fails before a byte is sent, and the step fails with it. A redirect within the origin still works.
// Note: the check is on the sockets, under any fetch or HTTP library, so it holds whichever undici Respect bundles.
// Note: plain JavaScript, since a bare `node` loads it, from src/ as from dist/.
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import tls from 'node:tls';

const given = process.env.CONFORMANCE_RESPECT_ORIGIN;
if (given) {
  const origin = new URL(given);
  const secure = origin.protocol === 'https:';
  const host = origin.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = Number(origin.port || (secure ? 443 : 80));

  /** @param {unknown[]} args the arguments of net.connect or tls.connect: (options) or (port, host) */
  const targetOf = (args) => {
    const [first, second] = args;
    if (first !== null && typeof first === 'object') {
      const options = /** @type {{ host?: string, port?: number | string, path?: string }} */ (first);
      return {
        host: options.path === undefined ? (options.host ?? 'localhost') : `the socket ${options.path}`,
        port: Number(options.port),
      };
    }
    return { host: typeof second === 'string' ? second : 'localhost', port: Number(first) };
  };

  /**
   * @param {string} kind
   * @param {unknown[]} args
   */
  const admit = (kind, args) => {
    const target = targetOf(args);
    const same =
      target.host.replace(/^\[|\]$/g, '').toLowerCase() === host && target.port === port && (kind === 'tls') === secure;
    if (same) return;
    const error = new Error(
      `the conformance kit lets Respect connect only to ${origin.origin}; a ${kind === 'tls' ? 'TLS' : 'TCP'} connection to ${target.host}:${target.port} was refused`,
    );
    throw Object.assign(error, { code: 'ERR_CONFORMANCE_OTHER_ORIGIN' });
  };

  const connect = net.connect;
  const connectTls = tls.connect;
  /** @type {typeof net.connect} */
  const guardedConnect = /** @type {any} */ (
    function (/** @type {any[]} */ ...args) {
      admit('tcp', args);
      return /** @type {any} */ (connect).apply(net, args);
    }
  );
  net.connect = guardedConnect;
  net.createConnection = guardedConnect;
  tls.connect = /** @type {any} */ (
    function (/** @type {any[]} */ ...args) {
      admit('tls', args);
      return /** @type {any} */ (connectTls).apply(tls, args);
    }
  );
  syncBuiltinESMExports();
}
