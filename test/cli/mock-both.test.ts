// merchant-payments mock --variant a,b, run from its source with tsx: both variants' Prism mocks at once for one
// command, each URL in a variable of its own, and nothing left running afterwards, even when one Prism cannot start.
import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import getPort from 'get-port';
import { afterEach, describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { stopChild } from '../../packages/contract/src/shared/children.js';
import { assertPortFree } from '../../packages/cli/src/mock/ports.js';
import { runSource, stillBound } from '../mock/processes.js';

const cli = path.join(root, 'packages/cli/src/main.ts');
const started: ChildProcess[] = [];
const held: net.Server[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((child) => stopChild(child)));
  await Promise.all(held.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A free port whose next port is free too (Variant B listens on --port + 1). */
async function freePair(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = await getPort();
    if (
      port < 65535 &&
      (await assertPortFree(port + 1).then(
        () => true,
        () => false,
      ))
    )
      return port;
  }
  throw new Error('no two consecutive free ports on 127.0.0.1');
}

/** The command run beside the mocks: prints what it was given, asks each mock for a list, exits 5 when both answer 200. */
const script = `
const a = process.env.MERCHANT_PAYMENTS_MOCK_URL_A, b = process.env.MERCHANT_PAYMENTS_MOCK_URL_B;
console.log('A=' + a + ' B=' + b + ' single=' + process.env.MERCHANT_PAYMENTS_MOCK_URL);
const listA = await fetch(a + '/payments', { headers: { Authorization: 'Bearer t' } });
const listB = await fetch(b + '/merchant/v1/payments', { headers: { 'X-Public-Key': 'pk', 'X-Secret-Key': 'sk' } });
const bWithoutPrefix = await fetch(b + '/payments', { headers: { 'X-Public-Key': 'pk', 'X-Secret-Key': 'sk' } });
console.log('answers ' + listA.status + ' ' + listB.status + ' ' + bWithoutPrefix.status);
process.exit(listA.status === 200 && listB.status === 200 ? 5 : 1);`;

describe('merchant-payments mock --variant a,b', () => {
  it('serves both variants for one command, with MERCHANT_PAYMENTS_MOCK_URL_A and _B, exits with its code and frees both ports', async () => {
    const port = await freePair();
    const { code, stdout } = await runSource(
      cli,
      ['mock', '--variant', 'a,b', '--port', String(port), '--', process.execPath, '--input-type=module', '-e', script],
      process.env,
      started,
    );
    expect(stdout).toContain(`Variant A listening on http://127.0.0.1:${port}\n`);
    expect(stdout).toContain(`Variant B listening on http://127.0.0.1:${port + 1}\n`);
    // Each URL is the server's root: Variant B's paths carry /merchant/v1, which the URL itself does not.
    expect(stdout).toContain(`A=http://127.0.0.1:${port} B=http://127.0.0.1:${port + 1} single=undefined`);
    expect(stdout).toContain('answers 200 200 404');
    expect(code).toBe(5);
    expect(await stillBound([port, port + 1])).toEqual([]);
  });

  it("exits 1 when Variant B's port is taken, and stops Variant A's Prism, which did start", async () => {
    const port = await freePair();
    const taken = net.createServer();
    held.push(taken);
    await new Promise<void>((resolve) => taken.listen(port + 1, '127.0.0.1', resolve));
    const { code, stderr } = await runSource(
      cli,
      ['mock', '--variant', 'both', '--port', String(port), '--', process.execPath, '-e', 'process.exit(0)'],
      process.env,
      started,
    );
    expect(code).toBe(1);
    expect(stderr).toContain(`Port ${port + 1} on 127.0.0.1 is already in use`);
    expect(await stillBound([port])).toEqual([]);
  });

  it('refuses --upstream with both variants, and a variant list it does not know', async () => {
    const upstream = await runSource(
      cli,
      ['mock', '--variant', 'a,b', '--upstream', 'http://127.0.0.1:9'],
      process.env,
      started,
    );
    expect([upstream.code, upstream.stderr]).toEqual([
      2,
      expect.stringContaining('--upstream checks one server, which implements one variant'),
    ]);
    const unknown = await runSource(cli, ['mock', '--variant', 'a,c'], process.env, started);
    expect([unknown.code, unknown.stderr]).toEqual([
      2,
      expect.stringContaining('--variant must be "a", "b" or "a,b", got "a,c"'),
    ]);
  });
});
