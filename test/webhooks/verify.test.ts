import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook, WebhookVerificationError } from '../../packages/contract/src/webhooks/index.js';
import {
  at,
  delivery,
  earlierSigned,
  exampleEvent,
  exampleTypes,
  OTHER_SECRET,
  ROTATED_SECRET,
  SECRET,
  standardSigned,
  T0,
} from './fixtures.js';

/** The WebhookVerificationError a verification rejects with. */
async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

describe('verifyWebhook', () => {
  it.each(exampleTypes)('accepts the contract example of %s signed by standardwebhooks', async (type) => {
    const { event, body, headers } = delivery(type);
    await expect(verifyWebhook(body, headers, SECRET, { now: at(T0) })).resolves.toEqual(event);
  });

  it('accepts what signWebhook signs, and standardwebhooks accepts it too', async () => {
    const { body, event } = delivery();
    const signed = await signWebhook({ id: event.id, body, secret: SECRET });
    await expect(verifyWebhook(body, signed, SECRET)).resolves.toEqual(event);
    const standard = new Webhook(SECRET).verify(body, {
      'webhook-id': signed['X-Event-ID'],
      'webhook-timestamp': signed['X-Timestamp'],
      'webhook-signature': signed['X-Signature'],
    });
    expect(standard).toEqual(event);
  });

  it('accepts the body as a string, a Buffer and a Uint8Array', async () => {
    const { body, headers, event } = delivery();
    const bytes = new TextEncoder().encode(body);
    for (const raw of [body, Buffer.from(body), bytes, bytes.buffer]) {
      await expect(verifyWebhook(raw, headers, SECRET, { now: at(T0) })).resolves.toEqual(event);
    }
  });

  it('matches header names case-insensitively in records, Node headers and fetch Headers', async () => {
    const { body, headers, event } = delivery();
    const mixed = Object.fromEntries(
      Object.entries(headers).map(([k, v], i) => [i % 2 ? k.toUpperCase() : k.toLowerCase(), v]),
    );
    const node = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
    for (const form of [mixed, node, new Headers(headers)]) {
      await expect(verifyWebhook(body, form, SECRET, { now: at(T0) })).resolves.toEqual(event);
    }
  });

  it('accepts any listed signature made with any configured secret (rotation)', async () => {
    const { body, event } = delivery();
    const signed = await signWebhook({ id: event.id, body, secret: [OTHER_SECRET, ROTATED_SECRET], timestamp: T0 });
    expect(signed['X-Signature'].split(' ')).toHaveLength(2);
    await expect(verifyWebhook(body, signed, [SECRET, ROTATED_SECRET], { now: at(T0) })).resolves.toEqual(event);
    await expect(verifyWebhook(body, signed, OTHER_SECRET, { now: at(T0) })).resolves.toEqual(event);
    expect((await rejection(verifyWebhook(body, signed, SECRET, { now: at(T0) }))).reason).toBe(
      'no_matching_signature',
    );
  });

  it('skips signature versions it does not know, such as v1a', async () => {
    const { body, headers, event } = delivery();
    const withAsymmetric = { ...headers, 'X-Signature': `v1a,c29tZXRoaW5n ${headers['X-Signature']}` };
    await expect(verifyWebhook(body, withAsymmetric, SECRET, { now: at(T0) })).resolves.toEqual(event);
  });

  it('rejects a missing X-Signature with missing_header', async () => {
    const { body, headers } = delivery();
    delete headers['X-Signature'];
    const error = await rejection(verifyWebhook(body, headers, SECRET, { now: at(T0) }));
    expect([error.reason, error.header]).toEqual(['missing_header', 'X-Signature']);
    expect(error.message).toContain('The X-Signature header is missing');
  });

  it('rejects a missing X-Event-ID with missing_header', async () => {
    const { body, headers } = delivery();
    const error = await rejection(verifyWebhook(body, { ...headers, 'X-Event-ID': '' }, SECRET, { now: at(T0) }));
    expect([error.reason, error.header]).toEqual(['missing_header', 'X-Event-ID']);
  });

  it('rejects a missing X-Timestamp with missing_header and points to allowEarlierLayout', async () => {
    const { body, headers } = delivery();
    delete headers['X-Timestamp'];
    const error = await rejection(verifyWebhook(body, headers, SECRET, { now: at(T0) }));
    expect([error.reason, error.header]).toEqual(['missing_header', 'X-Timestamp']);
    expect(error.message).toContain('allowEarlierLayout: true');
  });

  it('rejects an X-Timestamp that is not whole seconds with malformed_timestamp', async () => {
    const { body, headers } = delivery();
    for (const timestamp of ['2026-01-15T10:12:01Z', '1768471921.5', '-1']) {
      const error = await rejection(
        verifyWebhook(body, { ...headers, 'X-Timestamp': timestamp }, SECRET, { now: at(T0) }),
      );
      expect(error.reason).toBe('malformed_timestamp');
      expect(error.message).toContain('not whole Unix seconds');
    }
  });

  it('rejects an X-Signature without v1,<base64> values with malformed_signature', async () => {
    const { body, headers } = delivery();
    for (const signature of ['abc', 'v1,', 'v1,tooShort=', 'sha256=0123abcd']) {
      const error = await rejection(
        verifyWebhook(body, { ...headers, 'X-Signature': signature }, SECRET, { now: at(T0) }),
      );
      expect([error.reason, error.header]).toEqual(['malformed_signature', 'X-Signature']);
      expect(error.message).toContain('expected space-separated "v1,<base64 HMAC-SHA256>"');
      expect(error.message).not.toMatch(/tooShort|0123abcd/);
    }
  });

  it('rejects a signature made with another secret with no_matching_signature', async () => {
    const { body, headers } = delivery();
    const error = await rejection(verifyWebhook(body, headers, OTHER_SECRET, { now: at(T0) }));
    expect(error.reason).toBe('no_matching_signature');
    expect(error.message).toContain('Check that the secret is the one for this endpoint');
    expect(error.message).not.toContain(OTHER_SECRET.slice(6));
    expect(error.message).not.toContain(headers['X-Signature']!.slice(3));
  });

  it('rejects a re-serialised body with no_matching_signature', async () => {
    const { body, headers } = delivery();
    const pretty = JSON.stringify(JSON.parse(body), null, 2);
    expect((await rejection(verifyWebhook(pretty, headers, SECRET, { now: at(T0) }))).reason).toBe(
      'no_matching_signature',
    );
  });

  it('rejects a timestamp older than the tolerance with timestamp_too_old', async () => {
    const { body, headers, event } = delivery();
    await expect(verifyWebhook(body, headers, SECRET, { now: at(T0 + 300) })).resolves.toEqual(event);
    const error = await rejection(verifyWebhook(body, headers, SECRET, { now: at(T0 + 301) }));
    expect([error.reason, error.header]).toEqual(['timestamp_too_old', 'X-Timestamp']);
    expect(error.message).toContain('301 s in the past, beyond the 300 s tolerance');
  });

  it('rejects a timestamp further ahead than the tolerance with timestamp_in_future', async () => {
    const { body, headers, event } = delivery();
    await expect(verifyWebhook(body, headers, SECRET, { now: at(T0 - 300) })).resolves.toEqual(event);
    const error = await rejection(verifyWebhook(body, headers, SECRET, { now: at(T0 - 301) }));
    expect([error.reason, error.header]).toEqual(['timestamp_in_future', 'X-Timestamp']);
    expect(error.message).toContain('301 s in the future');
  });

  it('applies a configured tolerance and accepts a Date from the clock', async () => {
    const { body, headers, event } = delivery();
    const options = { toleranceSeconds: 10, now: () => new Date((T0 + 10) * 1000) };
    await expect(verifyWebhook(body, headers, SECRET, options)).resolves.toEqual(event);
    const late = { toleranceSeconds: 10, now: at(T0 + 11) };
    expect((await rejection(verifyWebhook(body, headers, SECRET, late))).reason).toBe('timestamp_too_old');
  });

  it('rejects a signed body that is not JSON with invalid_json', async () => {
    const cases = [
      ['{"id": ', 'not valid JSON'],
      [Buffer.from([0x7b, 0xff, 0x7d]), 'not valid UTF-8'],
    ] as const;
    for (const [body, why] of cases) {
      const signed = await signWebhook({ id: 'evt_1', body, secret: SECRET, timestamp: T0 });
      const error = await rejection(verifyWebhook(body, signed, SECRET, { now: at(T0) }));
      expect(error.reason).toBe('invalid_json');
      expect(error.message).toContain(`${why} although its signature matches`);
      expect(error.cause).toBeInstanceOf(Error);
    }
  });

  it('rejects a signed body that breaks the contract schema with schema_mismatch and Ajv errors', async () => {
    const event = exampleEvent();
    event.data['status'] = 'teleported';
    const body = JSON.stringify(event);
    const error = await rejection(verifyWebhook(body, standardSigned(body), SECRET, { now: at(T0) }));
    expect(error.reason).toBe('schema_mismatch');
    expect(error.errors).toEqual([
      { instancePath: '/data/status', message: 'must be equal to one of the allowed values' },
    ]);
    expect(error.message).toContain(
      "contract's WebhookEvent schema: /data/status must be equal to one of the allowed values",
    );
  });

  it('skips schema validation only with validateSchema: false, still checking the signature', async () => {
    const event = exampleEvent();
    event.data['status'] = 'teleported';
    const body = JSON.stringify(event);
    const unchecked = await verifyWebhook(body, standardSigned(body), SECRET, { now: at(T0), validateSchema: false });
    expect((unchecked.data as Record<string, unknown>)['status']).toBe('teleported');
    const forged = await rejection(
      verifyWebhook(body, standardSigned(`${body} `), SECRET, { now: at(T0), validateSchema: false }),
    );
    expect(forged.reason).toBe('no_matching_signature');
  });

  it('rejects an unknown event type with schema_mismatch', async () => {
    const body = JSON.stringify({ ...exampleEvent(), type: 'payment.teleported' });
    const error = await rejection(verifyWebhook(body, standardSigned(body), SECRET, { now: at(T0) }));
    expect(error.reason).toBe('schema_mismatch');
    expect(error.errors?.some((issue) => issue.instancePath === '/type')).toBe(true);
  });

  it('rejects an X-Event-ID that differs from the body id with header_mismatch', async () => {
    const { body } = delivery();
    const headers = standardSigned(body, { id: 'evt_other' });
    const error = await rejection(verifyWebhook(body, headers, SECRET, { now: at(T0) }));
    expect([error.reason, error.header]).toEqual(['header_mismatch', 'X-Event-ID']);
    expect(error.message).toContain("differs from the body's id");
  });

  it('rejects an X-Event-Type that differs from the body type with header_mismatch', async () => {
    const { body, headers } = delivery();
    const error = await rejection(
      verifyWebhook(body, { ...headers, 'X-Event-Type': 'payout.status_changed' }, SECRET, { now: at(T0) }),
    );
    expect([error.reason, error.header]).toEqual(['header_mismatch', 'X-Event-Type']);
  });

  it('throws a TypeError for a malformed secret, whatever the delivery', async () => {
    const { body, headers } = delivery();
    for (const secret of ['MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_not base64!', 'whsec_c2hvcnQ=', [] as string[]]) {
      await expect(verifyWebhook(body, headers, secret, { now: at(T0) })).rejects.toThrow(TypeError);
    }
    await expect(verifyWebhook(body, {}, [SECRET, 'whsec_c2hvcnQ='])).rejects.toThrow(/Webhook secret #2 is malformed/);
  });

  it('accepts the earlier layout only with allowEarlierLayout', async () => {
    const event = exampleEvent('payment.status_changed', 'earlier');
    const body = JSON.stringify(event);
    const headers = { ...earlierSigned(body, event.id), 'X-Event-Type': event.type };
    const error = await rejection(verifyWebhook(body, headers, SECRET));
    expect([error.reason, error.header]).toEqual(['missing_header', 'X-Timestamp']);
    await expect(verifyWebhook(body, headers, SECRET, { allowEarlierLayout: true })).resolves.toEqual(event);
  });

  it('signs the earlier layout over id and body only, without X-Timestamp', async () => {
    const event = exampleEvent('payment.status_changed', 'earlier');
    const body = JSON.stringify(event);
    const signed = await signWebhook({ id: event.id, body, secret: SECRET, layout: 'earlier', timestamp: T0 });
    expect(signed).toEqual(earlierSigned(body, event.id));
  });

  it('rejects a later-layout delivery replayed as the earlier layout with its timestamp moved into X-Event-ID', async () => {
    const { body, headers } = delivery();
    const { 'X-Timestamp': timestamp, ...rest } = headers;
    const downgraded = { ...rest, 'X-Event-ID': `${headers['X-Event-ID']}.${timestamp}` };
    const error = await rejection(verifyWebhook(body, downgraded, SECRET, { allowEarlierLayout: true }));
    expect([error.reason, error.header]).toEqual(['header_mismatch', 'X-Event-ID']);
    expect(error.message).toContain('may be forged or replayed');
  });

  it('validates an earlier-layout body against the earlier schema', async () => {
    const later = exampleEvent();
    const body = JSON.stringify(later);
    const headers = await signWebhook({ id: later.id, body, secret: SECRET, layout: 'earlier' });
    const error = await rejection(verifyWebhook(body, headers, SECRET, { allowEarlierLayout: true }));
    expect(error.reason).toBe('schema_mismatch');
    expect(error.message).toContain("contract's EarlierWebhookEvent schema");
  });

  it('still verifies later-layout deliveries, with their timestamp, when the earlier layout is allowed', async () => {
    const { body, headers, event } = delivery();
    await expect(verifyWebhook(body, headers, SECRET, { allowEarlierLayout: true, now: at(T0) })).resolves.toEqual(
      event,
    );
    const stale = await rejection(
      verifyWebhook(body, headers, SECRET, { allowEarlierLayout: true, now: at(T0 + 3600) }),
    );
    expect(stale.reason).toBe('timestamp_too_old');
  });
});
