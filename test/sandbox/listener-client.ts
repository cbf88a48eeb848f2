// A bare WebSocket client of Connect Webhook Listener for the tests: it records every frame the sandbox sends, and
// answers nothing unless the test does.
import WebSocket from 'ws';

/** A frame the sandbox sent. */
export type Frame = Record<string, unknown> & { type: string };

/** An open listener connection, its frames as they came, and a way to wait for the next one of a type. */
export interface TestListener {
  ws: WebSocket;
  frames: Frame[];
  next(type: string): Promise<Frame>;
  closed: Promise<{ code: number; reason: string }>;
}

/** Connects to `sandboxUrl`'s listener route with `headers`; rejects with the status and body of a refused upgrade. */
export function connectListener(
  sandboxUrl: string,
  headers: Record<string, string>,
  query: Record<string, string> = { forward_to: 'http://127.0.0.1:9/hook' },
): Promise<TestListener> {
  const url = new URL('/_sandbox/webhook-listener', sandboxUrl.replace(/^http/, 'ws'));
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const ws = new WebSocket(url, { headers });
  const frames: Frame[] = [];
  const waiting: { type: string; resolve: (frame: Frame) => void }[] = [];
  ws.on('message', (data) => {
    const frame = JSON.parse((data as Buffer).toString('utf8')) as Frame;
    frames.push(frame);
    const index = waiting.findIndex((w) => w.type === frame.type);
    if (index >= 0) waiting.splice(index, 1)[0]!.resolve(frame);
  });
  const taken = new Set<Frame>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const next = (type: string) => {
    const queued = frames.find((f) => f.type === type && !taken.has(f));
    if (queued) {
      taken.add(queued);
      return Promise.resolve(queued);
    }
    return new Promise<Frame>((resolve) =>
      waiting.push({
        type,
        resolve: (frame) => {
          taken.add(frame);
          resolve(frame);
        },
      }),
    );
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, frames, next, closed }));
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += String(chunk)));
      response.on('end', () =>
        reject(Object.assign(new Error(`HTTP ${response.statusCode}`), { status: response.statusCode, body })),
      );
    });
    ws.once('error', reject);
  });
}
