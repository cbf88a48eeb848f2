// The kit on a hosted sandbox (--sandbox, issued credentials): it runs in a test tenant of its own and deletes it after,
// so a tenant already in use gives no false failure; credentials that may not make one (a test tenant's) run in their
// own tenant, where only the objects the kit made are judged.
import { afterEach, describe, expect, it } from 'vitest';
import { formatText, runConformance } from '../../packages/conformance/src/index.js';
import { createVariantAClient } from '../../packages/contract/src/index.js';
import { createSandbox, type Sandbox } from '../../packages/sandbox/src/index.js';

const ADMIN = 'an-admin-token-of-at-least-32-characters';
const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((sandbox) => sandbox.close()));
});

/** An issued-mode sandbox whose egress rule lets its deliveries reach the kit's listener on 127.0.0.1. */
function hosted() {
  const sandbox = createSandbox({
    auth: 'issued',
    adminToken: ADMIN,
    allowWebhookHosts: ['127.0.0.1'],
    seed: 'tenancy',
  });
  open.push(sandbox);
  const admin = async (method: string, path: string) =>
    sandbox.fetch(new Request(`http://sandbox.test${path}`, { method, headers: { authorization: `Bearer ${ADMIN}` } }));
  return { sandbox, admin };
}

/** A tenant in use: payments in several states, its clock moved, an endpoint of its own that answers nothing. */
async function used(sandbox: Sandbox, accessToken: string) {
  const client = createVariantAClient({
    baseUrl: 'http://sandbox.test',
    accessToken,
    fetch: sandbox.fetch,
    retry: false,
  });
  for (const amount of ['10.00', '20.00', '30.00'])
    expect(
      (await client.POST('/payments', { body: { amount, currency: 'EUR', requisite: { type: 'card' } } })).response
        .status,
    ).toBe(200);
  const control = (method: string, path: string, body?: unknown) =>
    sandbox.fetch(
      new Request(`http://sandbox.test${path}`, {
        method,
        headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  expect((await control('POST', '/_sandbox/clock/advance', { seconds: 30 })).status).toBe(200);
  return { client, control };
}

/** The kit's invariants and webhooks stages with --sandbox, in-process, with a tenant's access token. */
const kit = (sandbox: Sandbox, accessToken: string) =>
  runConformance({
    variant: 'a',
    baseUrl: 'http://sandbox.test',
    credentials: { accessToken },
    sandbox: true,
    fetch: sandbox.fetch,
    only: ['invariants', 'webhooks'],
    requests: 3,
    webhookPort: 0,
  });

describe('the kit on a hosted sandbox', () => {
  it('runs in a test tenant of its own, passes on a tenant already in use, and deletes the test tenant after', async () => {
    const { sandbox, admin } = hosted();
    const parent = (await (await admin('POST', '/_admin/tenants')).json()).data;
    const { client, control } = await used(sandbox, parent.access_token);
    const report = await kit(sandbox, parent.access_token);
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    expect(report.passed).toBe(true);
    expect(report.tenant).toEqual({ kind: 'test', id: expect.stringMatching(/^ten_/) });
    expect(formatText(report)).toContain(
      `in test tenant ${(report.tenant as { id: string }).id} (deleted after the run)`,
    );
    // Nothing of the run is left: no test tenant, and the parent's own objects and endpoints are as they were.
    expect((await (await control('GET', '/_sandbox/tenants')).json()).pagination.total).toBe(0);
    expect((await client.GET('/payments')).data?.pagination.total).toBe(3);
    expect((await (await control('GET', '/_sandbox/webhook-endpoints')).json()).data).toEqual([]);
  });

  it("runs in the credentials' own tenant when they may not make a test tenant, judging only the objects it made", async () => {
    const { sandbox, admin } = hosted();
    const parent = (await (await admin('POST', '/_admin/tenants')).json()).data;
    const made = await sandbox.fetch(
      new Request('http://sandbox.test/_sandbox/tenants', {
        method: 'POST',
        headers: { authorization: `Bearer ${parent.access_token}` },
      }),
    );
    const test = (await made.json()).data;
    await used(sandbox, test.access_token);
    const report = await kit(sandbox, test.access_token);
    expect(report.tenant).toEqual({
      kind: 'given',
      noTestTenant: expect.stringMatching(
        /^POST \/_sandbox\/tenants answered 403: .*a test tenant can't make test tenants/,
      ),
    });
    expect(report.checks.filter((check) => !check.ok)).toEqual([]);
    expect(report.passed).toBe(true);
  });
});
