// A JSON request to a sandbox in process, answered with its status and parsed body, for the postgres files that drive
// instances through their APIs.
import type { Sandbox } from '../../packages/sandbox/src/index.js';

const ORIGIN = 'http://sandbox.test';

/** Sends `body` (as JSON, when given) with `headers`; the status and the parsed body (undefined when empty). */
export async function send(
  sandbox: Sandbox,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
) {
  const response = await sandbox.fetch(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}
