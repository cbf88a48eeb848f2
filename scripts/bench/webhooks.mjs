// Webhook verification throughput for a 1 KB and a 24 KB event (about the largest the contract's metadata bounds
// allow): ours with and without schema validation,
// raw node:crypto HMAC-SHA256 over the same signed content (the baseline), and the standardwebhooks package.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { interleaved, timeMs } from './stats.mjs';

const SECRET = `whsec_${Buffer.from('merchant-payments-benchmark-secret-bytes').toString('base64')}`;
const KEY = Buffer.from(SECRET.slice('whsec_'.length), 'base64');

/** A later-layout payment event whose JSON is about `bytes` long (metadata values pad it). */
export function eventOfSize(example, bytes) {
  const event = structuredClone(example);
  const base = JSON.stringify(event).length;
  // Note: metadata holds at most 50 keys with values of at most 500 characters (the contract's bounds), so a large
  // event has many long values.
  const keys = bytes > 4096 ? 50 - Object.keys(event.data.metadata ?? {}).length : 1;
  const each = Math.floor((bytes - base - keys * 12) / keys);
  if (each < 1) throw new Error(`the example event is already ${base} bytes, over ${bytes}`);
  if (each > 500)
    throw new Error(`an event of ${bytes} bytes needs metadata values of ${each} characters, over the contract's 500`);
  event.data.metadata = { ...event.data.metadata };
  for (let i = 0; i < keys; i++) event.data.metadata[`note_${String(i).padStart(2, '0')}`] = 'x'.repeat(each);
  return JSON.stringify(event);
}

/** Rows of verifications per second; ratio against raw HMAC from the same run. */
export async function webhookThroughput({ pkg, example, runs, verifications }) {
  const rows = [];
  for (const size of [1024, 24 * 1024]) {
    const body = eventOfSize(example, size);
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = await pkg.signWebhook({ id: example.id, timestamp, body, secret: SECRET });
    headers['X-Event-Type'] = example.type;
    const now = () => timestamp * 1000;
    const standard = new Webhook(SECRET);
    const standardHeaders = {
      'webhook-id': headers['X-Event-ID'],
      'webhook-timestamp': headers['X-Timestamp'],
      'webhook-signature': headers['X-Signature'],
    };
    const expected = Buffer.from(headers['X-Signature'].slice(3), 'base64');
    const bodyBuffer = Buffer.from(body);
    const label = `${(body.length / 1024).toFixed(0)} KB event`;

    const contenders = {
      'raw HMAC (node:crypto)': () => {
        const mac = createHmac('sha256', KEY)
          .update(`${headers['X-Event-ID']}.${headers['X-Timestamp']}.`)
          .update(bodyBuffer)
          .digest();
        if (!timingSafeEqual(mac, expected)) throw new Error('raw HMAC did not match');
      },
      // The floor for any verifier that returns the parsed event: the HMAC plus one JSON.parse of the body.
      'raw HMAC + JSON.parse': () => {
        const mac = createHmac('sha256', KEY)
          .update(`${headers['X-Event-ID']}.${headers['X-Timestamp']}.`)
          .update(bodyBuffer)
          .digest();
        if (!timingSafeEqual(mac, expected)) throw new Error('raw HMAC did not match');
        return JSON.parse(bodyBuffer.toString('utf8'));
      },
      'ours, no schema validation': () =>
        pkg.verifyWebhook(bodyBuffer, headers, SECRET, { now, validateSchema: false }),
      'ours, with schema validation': () => pkg.verifyWebhook(bodyBuffer, headers, SECRET, { now }),
      standardwebhooks: () => standard.verify(body, standardHeaders),
    };
    // Every contender must accept the delivery before it is timed.
    for (const [name, verify] of Object.entries(contenders)) {
      try {
        await verify();
      } catch (error) {
        throw new Error(`${name} rejected the ${label}: ${error.message}`, { cause: error });
      }
    }
    const batch = Object.fromEntries(
      Object.entries(contenders).map(([name, verify]) => [
        name,
        async () => {
          const ms = await timeMs(async () => {
            for (let i = 0; i < verifications; i++) await verify();
          });
          return (verifications / ms) * 1000;
        },
      ]),
    );
    const results = await interleaved(batch, { runs, warmup: 1 });
    const raw = results['raw HMAC (node:crypto)'].median;
    const baselines = {
      'raw HMAC + JSON.parse': results['raw HMAC + JSON.parse'].median,
      standardwebhooks: results.standardwebhooks.median,
    };
    for (const [name, s] of Object.entries(results)) {
      const row = { section: 'webhook verification', name: `${label}: ${name}`, unit: 'ops/s', ...s };
      if (name !== 'raw HMAC (node:crypto)') Object.assign(row, { ratio: s.median / raw, baseline: 'raw HMAC' });
      if (name === 'ours, no schema validation')
        Object.assign(row, { target: '>= 0.8x raw', met: s.median / raw >= 0.8 });
      rows.push(row);
      if (!name.startsWith('ours')) continue;
      for (const [baseline, ops] of Object.entries(baselines)) {
        const extra = { ratio: s.median / ops, baseline };
        if (baseline === 'standardwebhooks') Object.assign(extra, { target: '>= 1.0x', met: s.median / ops >= 1 });
        rows.push({
          section: 'webhook verification',
          name: `${label}: ${name} (vs ${baseline})`,
          unit: 'ops/s',
          ...s,
          ...extra,
        });
      }
    }
  }
  return rows;
}
