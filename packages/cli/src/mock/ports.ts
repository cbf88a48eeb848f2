// TCP ports for the servers the mock command and `npm start` run: refusing a taken one, waiting for a listener.
// Note: finding a free port is get-port's (a devDependency: only the tests and the bench need one).
import net from 'node:net';

/** Throws a clear error if something already listens on host:port. */
export async function assertPortFree(port: number, host = '127.0.0.1'): Promise<void> {
  try {
    const server = await listen(port, host);
    await new Promise((r) => server.close(r));
  } catch (err) {
    const { code } = err as NodeJS.ErrnoException;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw err;
    throw new Error(
      `Port ${port} on ${host} is already in use (${code}); stop whatever holds it or choose another port.`,
      { cause: err },
    );
  }
}

/** Resolves once host:port accepts a TCP connection; rejects if `isDead()` or after `timeoutMs`. */
export async function waitForPort(
  port: number,
  host: string,
  { timeoutMs = 30000, isDead = () => false }: { timeoutMs?: number; isDead?: () => boolean } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (isDead()) throw new Error('process exited before it listened');
    if (await canConnect(port, host)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listened on ${host}:${port} within ${timeoutMs} ms`);
}

function canConnect(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function listen(port: number, host: string): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => resolve(server));
  });
}
