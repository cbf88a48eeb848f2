// TCP ports for the servers this package starts: finding free ones, refusing taken ones, waiting for a listener.
import net from 'node:net';

/** Returns `count` distinct free TCP ports on `host`, all held open until every one is chosen. */
export async function freePorts(count: number, host = '127.0.0.1'): Promise<number[]> {
  const servers: net.Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listen(0, host));
    return servers.map((s) => (s.address() as net.AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

/** Returns a free TCP port on `host` (listen on port 0, read it, close). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [port] = await freePorts(1, host);
  return port!;
}

/** Throws a clear error if something already listens on host:port. */
export async function assertPortFree(port: number, host = '127.0.0.1'): Promise<void> {
  try {
    const server = await listen(port, host);
    await new Promise((r) => server.close(r));
  } catch (err) {
    const { code } = err as NodeJS.ErrnoException;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw err;
    throw new Error(`Port ${port} on ${host} is already in use (${code}); stop whatever holds it or choose another port.`);
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
