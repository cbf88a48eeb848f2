// The README shows the runnable files in examples/ verbatim, under the file name a user saves them as; its TypeScript
// blocks, if any, are type-checked examples. This keeps the two from drifting apart.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readmeFiles } from './package/readme-blocks.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const tsBlocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
const jsBlocks = [...readme.matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
const names = readdirSync(new URL('../examples/', import.meta.url));
const source = (name: string) => readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8');
/** The examples a guide shows in full, rather than the README: the testing guide's two test files. */
const guideExamples: Record<string, { name: string; fence: string }[]> = {
  'docs/testing.md': [
    { name: 'testing-vitest.test.ts', fence: 'ts' },
    { name: 'testing-node.test.mjs', fence: 'js' },
  ],
};
const shownInGuides = Object.values(guideExamples)
  .flat()
  .map((example) => example.name);

describe('README', () => {
  it.each(names.filter((name) => name.endsWith('.mjs') && !shownInGuides.includes(name)))(
    'shows examples/%s verbatim as the file a user creates',
    (name) => {
      expect(readmeFiles(readme)).toContainEqual({ name, content: source(name) });
    },
  );

  it('shows no JavaScript block that is not a file to create, and each one under the name of its example', () => {
    const files = readmeFiles(readme);
    expect(files.map((file) => file.content).sort()).toEqual([...jsBlocks].sort());
    for (const { name, content } of files) expect(content, name).toBe(source(name));
  });

  it('shows no TypeScript block that is not one of the type-checked examples', () => {
    const sources = names.filter((name) => name.endsWith('.ts')).map(source);
    for (const block of tsBlocks) expect(sources).toContain(block);
  });
});

describe('the runnable receivers', () => {
  it.each(['receiver.mjs', 'sandbox-flow.mjs'])(
    '%s listens on PORT, on 3000 only by default, and names the port it took',
    (name) => {
      const code = source(name).replace(/^\s*\/\/.*$/gm, '');
      expect(code).toContain('Number(process.env.PORT ?? 3000)');
      expect(code.match(/3000/g)).toHaveLength(1);
    },
  );
});

describe("the credentials' environment variables", () => {
  // Note: the commands read PAYMENTS_ACCESS_TOKEN, PAYMENTS_PUBLIC_KEY and PAYMENTS_SECRET_KEY; examples and guides that
  // named them otherwise (MERCHANT_TOKEN) sent readers looking for two sets. A CI secret (secrets.STAGING_SECRET_KEY)
  // handed over as one of them is a name of the reader's own.
  it('have one name each in the README, the guides and the examples', () => {
    const docs = readdirSync(new URL('../docs/', import.meta.url)).filter((name) => name.endsWith('.md'));
    const texts = [
      ['README.md', readme],
      ...docs.map((name) => [`docs/${name}`, readFileSync(new URL(`../docs/${name}`, import.meta.url), 'utf8')]),
      ...names.map((name) => [`examples/${name}`, source(name)]),
    ];
    for (const [name, text] of texts)
      expect(
        text!.match(
          /(?<!secrets\.)\b(?!PAYMENTS_)[A-Z]+_(?:ACCESS_TOKEN|PUBLIC_KEY|SECRET_KEY)\b|\bMERCHANT_(?!PAYMENTS_)[A-Z_]+\b/g,
        ) ?? [],
        name,
      ).toEqual([]);
  });
});

describe.each(Object.entries(guideExamples))('%s', (guide, examples) => {
  const text = readFileSync(new URL(`../${guide}`, import.meta.url), 'utf8');
  it.each(examples)('shows examples/$name verbatim, under its name', ({ name, fence }) => {
    expect(text).toContain(`\`examples/${name}\``);
    expect(
      [...text.matchAll(new RegExp(`^\`\`\`${fence}\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]),
    ).toContain(source(name));
  });
});

describe('docs/sandbox-guide.md', () => {
  it('shows examples/sandbox-control.ts verbatim', () => {
    const guide = readFileSync(new URL('../docs/sandbox-guide.md', import.meta.url), 'utf8');
    expect([...guide.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1])).toContain(
      source('sandbox-control.ts'),
    );
  });
});

describe('examples/webhook-receiver.ts', () => {
  const secret = `whsec_${Buffer.from('example-receiver-secret-24-bytes!').toString('base64')}`;

  it('describes each verified event type and names the reason of a rejected one', async () => {
    const { describeDelivery } = await import('../examples/webhook-receiver.js');
    const { signWebhook } = await import('../packages/contract/src/webhooks/index.js');
    const { webhookExamples } = await import('../packages/contract/generated/validators/webhook-examples.js');
    const lines: string[] = [];
    for (const { value } of webhookExamples.layouts.later.examples) {
      const body = JSON.stringify(value);
      const headers = { ...(await signWebhook({ id: value.id, body, secret })), 'X-Event-Type': value.type };
      lines.push(await describeDelivery(body, headers, secret));
      lines.push(await describeDelivery(`${body} `, headers, secret));
    }
    // The contract's examples, in the order the generator lists them.
    expect(lines).toEqual([
      'appeal APL-2026-000123 is under_review',
      'rejected: no_matching_signature',
      'payment pay_8f3k2m9q4w7x is succeeded (no reason)',
      'rejected: no_matching_signature',
      'payout po_3h6j9l2n5p8r is processing',
      'rejected: no_matching_signature',
    ]);
  });

  it('runs the Node receiver: 200 once, a duplicate acknowledged without a second call, 401 on a wrong secret', async () => {
    const { startReceiver } = await import('../examples/webhook-receiver.js');
    const { sendWebhookExample } = await import('../packages/contract/src/webhooks/index.js');
    const seen: string[] = [];
    const server = startReceiver(0, [secret], async (event) => void seen.push(event.id));
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
      const first = await sendWebhookExample({ url, secret });
      const again = await sendWebhookExample({ url, secret });
      const forged = await sendWebhookExample({ url, secret: `whsec_${Buffer.alloc(24, 7).toString('base64')}` });
      expect([first.status, again.status, forged.status]).toEqual([200, 200, 401]);
      expect(seen).toEqual([first.event.id]);
      expect(JSON.parse(forged.body)).toMatchObject({ status: 401, code: 'no_matching_signature' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
