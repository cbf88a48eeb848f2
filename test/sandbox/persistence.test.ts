// The state file: a round trip through it, atomic saves, and a corrupt or foreign file that stops start-up with a
// clear error and is left exactly as it was.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, StateFileError } from '../../src/sandbox/index.js';
import { encodeState } from '../../src/sandbox/persistence/state-file.js';
import { beginIdempotent, fingerprint } from '../../src/sandbox/core/index.js';
import { call, clientA, clientB, HOOK_URL, newSandbox, paymentBody, receiver } from './fixtures.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const stateFile = () => path.join(dir, `state-${++files}.bin`);

describe('the state file', () => {
  it('round-trips tenants, their clocks, idempotency records and Variant B key pairs', async () => {
    const file = stateFile();
    const first = newSandbox({ stateFile: file });
    const payment = (await clientA(first).POST('/payments', { body: paymentBody(), headers: { 'Idempotency-Key': 'k-1' } })).data!.data;
    await first.advance({ accessToken: 'token-a' }, 60);
    await clientB(first, 'pk_1', 'sk_1').GET('/merchant/v1/balance');
    await first.close();

    const second = newSandbox({ stateFile: file });
    const retrieved = await clientA(second).GET('/payments/{id}', { params: { path: { id: payment.id } } });
    expect(retrieved.data?.data.status).toBe('succeeded');
    expect((await second.now({ accessToken: 'token-a' })).toISOString()).toBe('2026-01-01T00:01:00.000Z');
    const replay = await clientA(second).POST('/payments', { body: paymentBody(), headers: { 'Idempotency-Key': 'k-1' } });
    expect([replay.response.headers.get('idempotent-replayed'), replay.data?.data.id]).toEqual(['true', payment.id]);
    expect((await clientB(second, 'pk_1', 'sk_other').GET('/merchant/v1/balance')).response.status).toBe(401);
    // Note: the seeded ids go on where they stopped, so no id is issued twice.
    const next = (await clientA(second).POST('/payments', { body: paymentBody() })).data!.data;
    expect(next.id).not.toBe(payment.id);
  });

  it("keeps Variant B's secret key in the tenant's state, as a digest, through the state file; a reset forgets it", async () => {
    const file = stateFile();
    const first = newSandbox({ stateFile: file });
    const tenant = first.tenantId({ publicKey: 'pk_kept' });
    expect((await clientB(first, 'pk_kept', 'sk_kept').GET('/merchant/v1/balance')).response.status).toBe(200);
    const digest = await first.store.transaction(tenant, (state) => state.secretKeyDigest);
    expect(digest).toBe(createHash('sha256').update('sk_kept').digest('base64url'));
    await first.close();

    const second = newSandbox({ stateFile: file });
    expect(await second.store.transaction(tenant, (state) => state.secretKeyDigest)).toBe(digest);
    expect((await clientB(second, 'pk_kept', 'sk_other').GET('/merchant/v1/balance')).response.status).toBe(401);
    expect((await clientB(second, 'pk_kept', 'sk_kept').GET('/merchant/v1/balance')).response.status).toBe(200);
    await call(second, 'POST', '/_sandbox/reset', { 'x-public-key': 'pk_kept', 'x-secret-key': 'sk_kept' });
    expect((await clientB(second, 'pk_kept', 'sk_other').GET('/merchant/v1/balance')).response.status).toBe(200);
  });

  it('sends again, after a restart, an attempt that was being sent when the file was saved', async () => {
    const file = stateFile();
    let release!: () => void;
    const hanging = () => new Promise<Response>((resolve) => (release = () => resolve(new Response(null, { status: 204 }))));
    const first = newSandbox({ stateFile: file, webhookUrls: [HOOK_URL], fetch: hanging, deliveryTimeoutMs: 60_000 });
    const client = clientA(first);
    const payment = (await client.POST('/payments', { body: paymentBody() })).data!.data;
    await client.POST('/payments/{id}/cancel', { params: { path: { id: payment.id } } });
    const tenant = first.tenantId({ accessToken: 'token-a' });
    expect(await first.store.transaction(tenant, (state) => state.sending.length)).toBe(1);
    await first.runtime.save();

    // The first process is gone as far as the file knows: the second one takes the attempt at once, not after a lease.
    const hooks = receiver();
    const second = newSandbox({ stateFile: file, webhookUrls: [HOOK_URL], fetch: hooks.fetch });
    await second.runtime.deliver(tenant);
    expect(hooks.later.map((event) => event.data.id)).toEqual([payment.id]);
    release();
  });

  it('forgets a key whose request was still running when the file was saved, so that its retry runs rather than 409', async () => {
    const file = stateFile();
    const first = newSandbox({ stateFile: file });
    const body = { seconds: 60 };
    await first.store.transaction(first.tenantId({ accessToken: 'token-a' }), (tenant) =>
      beginIdempotent(tenant, '_sandbox:advanceClock', 'k-running', fingerprint({ params: {}, body }), first.runtime.now(tenant)),
    );
    await clientA(first).POST('/payments', { body: paymentBody() });
    await first.close();

    const second = newSandbox({ stateFile: file });
    const retry = await call(second, 'POST', '/_sandbox/clock/advance', { authorization: 'Bearer token-a', 'idempotency-key': 'k-running' }, body);
    expect([retry.status, (await retry.json()).data.now]).toEqual([200, '2026-01-01T00:01:00Z']);
  });

  it('saves before answering, by writing a new file and renaming it over the old one', async () => {
    const file = stateFile();
    const sandbox = newSandbox({ stateFile: file });
    await clientA(sandbox).POST('/payments', { body: paymentBody() });
    const saved = readFileSync(file);
    expect(saved.subarray(0, 8).toString('latin1')).toBe('MPSBXST\n');
    const reloaded = createSandbox({ stateFile: file });
    expect((await clientA(reloaded).GET('/payments')).data?.pagination.total).toBe(1);
    await reloaded.close();
    expect(readdirSync(dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it.each([
    ['a file of something else', () => Buffer.from('{"tenants":{}}\n'), /is not a sandbox state file/],
    ['a truncated file', () => encodeState({ tenants: new Map(), keys: new Map() }).subarray(0, 50), /is corrupt/],
    ['a file with a flipped byte', () => flip(encodeState({ tenants: new Map(), keys: new Map() })), /is corrupt \(its checksum does not match\)/],
    ['a file of another format version', () => version(encodeState({ tenants: new Map(), keys: new Map() }), 99), /has state format 99/],
  ])('refuses %s with a clear error and leaves it as it was', async (_name, bytes, message) => {
    const file = stateFile();
    const content = bytes();
    writeFileSync(file, content);
    let error: unknown;
    try {
      createSandbox({ stateFile: file });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StateFileError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain(file);
    expect(readFileSync(file).equals(content)).toBe(true);
  });

  it('refuses a state file in a folder that does not exist', () => {
    expect(() => createSandbox({ stateFile: path.join(dir, 'missing', 'state.bin') })).toThrow(/folder of .* does not exist/);
  });

  it('starts empty when the file does not exist yet, and creates it on the first change', async () => {
    const file = stateFile();
    const sandbox = newSandbox({ stateFile: file });
    expect(readdirSync(dir)).not.toContain(path.basename(file));
    await clientA(sandbox).POST('/payments', { body: paymentBody() });
    expect(readdirSync(dir)).toContain(path.basename(file));
  });
});

function flip(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  copy[copy.length - 1]! ^= 0xff;
  return copy;
}

function version(bytes: Buffer, n: number): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt32BE(n, 8);
  return copy;
}
