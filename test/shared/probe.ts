// Raw sockets that probe how long a server keeps a connection: one that sends nothing, trickled headers, a trickled body.
import net from 'node:net';

/** What "within about a second of the time-out" allows on a loaded machine: far below Node's 30 s check interval. */
export const GENEROUS_MS = 5000;
const sockets: net.Socket[] = [];

/** Destroys every probe's socket still open (call in afterEach). */
export function closeProbes(): void {
  for (const socket of sockets.splice(0)) socket.destroy();
}

/** Connects, sends `chunks` one every `everyMs` (then nothing), and resolves with how long the server kept the socket open and what it sent. */
export function probe(port: number, chunks: string[] = [], everyMs = 100): Promise<{ ms: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    let answer = '';
    const queue = [...chunks];
    const timer = setInterval(() => {
      const chunk = queue.shift();
      if (chunk !== undefined && !socket.destroyed) socket.write(chunk);
    }, everyMs);
    const giveUp = setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(
        new Error(
          `timed out after ${GENEROUS_MS / 1000} s: the server kept the connection open; it sent ${JSON.stringify(answer)}`,
        ),
      );
    }, GENEROUS_MS);
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      clearTimeout(giveUp);
      resolve({ ms: Date.now() - started, answer });
    });
  });
}

// Note: headers that never end, one line at a time.
export const trickledHeaders = [
  'GET / HTTP/1.1\r\n',
  'Host: x\r\n',
  ...Array.from({ length: 100 }, (_, i) => `X-${i}: y\r\n`),
];
// Note: a body that never reaches its Content-Length, to a route that reads it.
export const trickledBody = [
  'POST /payments HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nIdempotency-Key: k1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
  ...Array.from({ length: 100 }, () => ' '),
];
