// Serves one folder over HTTP (GET and HEAD only), for the docs site in `npm start` and in tests.
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.yaml': 'application/yaml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/** Starts serving `dir` on host:port (0 picks a free port); resolves to `{ url, port, stop }` once it listens. */
export async function startStaticServer({ dir, port = 0, host = '127.0.0.1' }) {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const file = fileFor(root, req.url ?? '/');
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'content-length': statSync(file).size,
      'cache-control': 'no-cache',
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, resolve);
  });
  const actual = server.address().port;
  return {
    url: `http://${host}:${actual}`,
    port: actual,
    stop: () => new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

// Maps a request path to a regular file under root, `/` and folders to their index.html; undefined when none.
function fileFor(root, url) {
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(url, 'http://localhost').pathname);
  } catch {
    return undefined;
  }
  const candidate = path.resolve(root, `.${pathname}`);
  // Note: path.resolve has already collapsed any `..`; anything outside root is refused.
  if (candidate !== root && !candidate.startsWith(root + path.sep)) return undefined;
  const stat = statSync(candidate, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return fileFor(root, `${pathname.replace(/\/$/, '')}/index.html`);
  return stat?.isFile() ? candidate : undefined;
}
