// What the report shows of an answer that echoes a credential: never the credential, in any encoding it came back in,
// nor a piece of it left by cutting the excerpt, in report.json, JUnit or the text summary.
import { describe, expect, it } from 'vitest';
import { formatText, runConformance, toJson, toJunit } from '../../packages/conformance/src/index.js';
import { maskSecrets, responseRecordOf } from '../../packages/conformance/src/http.js';
import { maskWebhookSecret } from '../../packages/conformance/src/webhook-checks.js';

const SECRET = 'sk_mask_Secret/with+odd=chars"and\\more_0123456789';
const PUBLIC = 'pk_mask_Public_ABCDEFGHIJKLMNOP';
const credentials = { publicKey: PUBLIC, secretKey: SECRET };

/** The ways a server may echo the secret back. */
const echoes: Record<string, string> = {
  raw: SECRET,
  json: JSON.stringify(SECRET).slice(1, -1),
  url: encodeURIComponent(SECRET),
  urlLowercase: encodeURIComponent(SECRET).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
  form: new URLSearchParams({ s: SECRET }).toString().slice(2),
  base64: Buffer.from(SECRET).toString('base64'),
  base64url: Buffer.from(SECRET).toString('base64url'),
  basic: Buffer.from(`${PUBLIC}:${SECRET}`).toString('base64'),
  inJsonBase64: Buffer.from(JSON.stringify({ key: SECRET })).toString('base64'),
};

/** Every run of `length` characters of `secret` that `text` contains. */
const pieces = (text: string, secret: string, length = 8) =>
  Array.from({ length: secret.length - length + 1 }, (_, at) => secret.slice(at, at + length)).filter((piece) =>
    text.includes(piece),
  );

describe('masking credentials in the report', () => {
  it.each(Object.entries(echoes))('masks a secret echoed as %s', (_name, echo) => {
    const masked = maskSecrets(`{"echo":"${echo}"}`, credentials);
    expect(masked).toContain('$PAYMENTS_');
    expect(masked).not.toContain(echo);
    const decoded = [
      masked,
      decodeURIComponent(masked.replace(/\+/g, ' ')),
      Buffer.from(masked.replace(/^.*"echo":"|".*$/g, ''), 'base64').toString('latin1'),
    ];
    for (const text of decoded) expect(pieces(text, SECRET, 12)).toEqual([]);
  });

  it('masks before cutting the excerpt, so a secret across the 500th character leaves no prefix', () => {
    for (let at = 470; at <= 500; at += 1) {
      const { bodyExcerpt } = responseRecordOf(
        200,
        'application/json',
        `${'x'.repeat(at)}${SECRET}${'y'.repeat(100)}`,
        credentials,
      );
      expect(pieces(bodyExcerpt, SECRET, 4), `secret at ${at}`).toEqual([]);
    }
  });

  it('masks a piece of a secret that an earlier cut left at the end or the start of a text', () => {
    expect(maskSecrets(`tail ${SECRET.slice(0, 22)}`, credentials)).toBe('tail $PAYMENTS_SECRET_KEY');
    expect(maskSecrets(`${SECRET.slice(-15)} head`, credentials)).toBe('$PAYMENTS_SECRET_KEY head');
  });

  it('masks the webhook secret in its encodings too', () => {
    const secret = 'whsec_bWFza2luZy13ZWJob29rLXNlY3JldC0yNC1ieXRlcw==';
    const masked = maskWebhookSecret(
      `a ${encodeURIComponent(secret)} b ${Buffer.from(secret).toString('base64')}`,
      secret,
    );
    expect(masked).toBe('a $WEBHOOK_SECRET b $WEBHOOK_SECRET');
  });

  it('keeps every encoding of an echoed credential out of report.json, JUnit and the text summary', async () => {
    // A server that answers every request 500 with the credential it got in every encoding, then raw across the 500th character.
    const fetch = async (request: Request) => {
      const secret = request.headers.get('x-secret-key') ?? '';
      const echoed = `${[echoes.url, echoes.base64, echoes.basic].join(' ')} `;
      const body = `${echoed}${'x'.repeat(480 - echoed.length)}${secret}${'y'.repeat(100)}`;
      return new Response(body, { status: 500, headers: { 'content-type': 'text/plain' } });
    };
    const report = await runConformance({
      variant: 'b',
      baseUrl: 'http://echo.test',
      credentials,
      only: ['fuzz'],
      seed: 3,
      requests: 1,
      fetch,
    });
    expect(report.passed).toBe(false);
    const written = [toJson(report), toJunit(report), formatText(report)].join('\n');
    expect(written).toContain('$PAYMENTS_SECRET_KEY');
    expect(report.checks.find((check) => check.check === 'not_a_server_error')?.response?.bodyExcerpt).toMatch(
      /^\$PAYMENTS_SECRET_KEY \$PAYMENTS_SECRET_KEY .*x{10}\$PAYMENTS_SECRET_KEY/,
    );
    for (const echo of Object.values(echoes)) expect(written).not.toContain(echo);
    expect(pieces(written, SECRET, 10)).toEqual([]);
  });
});
