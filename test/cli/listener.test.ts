// The receiver behind `merchant-payments webhook listen`, in-process on 127.0.0.1: what it forwards, and how long it
// lets a silent or slow peer hold a connection.
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { FORWARDED_HEADERS, startListener, type RunningListener } from '../../packages/cli/src/webhook/listener.js';
import { exampleEvent, SECRET, standardSigned } from '../webhooks/fixtures.js';
import { serveNode, type Receiver } from '../webhooks/server.js';

const open: Array<RunningListener | Receiver> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function listener(options: { forwardTo?: URL } = {}): Promise<RunningListener> {
  const started = await startListener({
    port: 0,
    host: '127.0.0.1',
    secret: SECRET,
    onVerified: () => {},
    onRefused: () => {},
    ...options,
  });
  open.push(started);
  return started;
}

describe('webhook listen --forward-to', () => {
  it("forwards the body and only the delivery scheme's headers, not ones a replay added", async () => {
    const bodies: string[] = [];
    const receiver = await serveNode(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      bodies.push(body);
      res.writeHead(200).end();
    });
    open.push(receiver);
    const listen = await listener({ forwardTo: new URL(`${receiver.url}/hooks`) });
    const event = exampleEvent('payout.status_changed');
    const body = JSON.stringify(event);
    const signed: Record<string, string> = {
      ...standardSigned(body, { timestamp: Math.floor(Date.now() / 1000) }),
      'X-Event-Type': event.type,
    };
    const added = { Authorization: 'Bearer stolen', Cookie: 'session=admin', 'X-Internal-Admin': 'true' };
    const answer = await fetch(listen.url, {
      method: 'POST',
      headers: { ...signed, ...added, 'Content-Type': 'application/json', 'User-Agent': 'replayer/1' },
      body,
    });
    expect(answer.status).toBe(200);
    expect(bodies).toEqual([body]);
    const [headers] = receiver.received as [IncomingHttpHeaders];
    for (const name of Object.keys(added)) expect(headers, name).not.toHaveProperty(name.toLowerCase());
    expect(headers).toMatchObject({
      'x-event-id': signed['X-Event-ID'],
      'x-event-type': 'payout.status_changed',
      'x-signature': signed['X-Signature'],
      'x-timestamp': signed['X-Timestamp'],
      'content-type': 'application/json',
      'user-agent': 'replayer/1',
    });
    expect([...FORWARDED_HEADERS].sort()).toEqual([
      'content-type',
      'user-agent',
      'x-event-id',
      'x-event-type',
      'x-signature',
      'x-timestamp',
    ]);
  });
});
