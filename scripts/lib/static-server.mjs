// Serves one folder over HTTP with sirv, for the docs site in `npm start` and in tests.
import { once } from 'node:events';
import http from 'node:http';
import sirv from 'sirv';

/** Starts serving `dir` on host:port (0 picks a free port); resolves to `{ url, port, stop }` once it listens. */
export async function startStaticServer({ dir, port = 0, host = '127.0.0.1' }) {
  // Note: dev mode reads each file when it is asked for and answers `no-cache`, so a rebuilt site is served as it is.
  const server = http.createServer(sirv(dir, { dev: true, etag: true }));
  server.listen({ port, host, exclusive: true });
  await once(server, 'listening');
  const actual = server.address().port;
  return {
    url: `http://${host}:${actual}`,
    port: actual,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
