// A server on 127.0.0.1 that takes connections and never answers, for the tests of what the kit does then.
import net, { type AddressInfo } from 'node:net';

/** Listens on a free port; returns its URL, the sockets it holds, and how to close it (its sockets first). */
export async function silentServer(): Promise<{ url: string; sockets: net.Socket[]; close: () => Promise<void> }> {
  const sockets: net.Socket[] = [];
  const server = net.createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets, close };
}
