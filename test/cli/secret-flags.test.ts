// No command takes a secret as a flag: `--webhook-secret` is refused by every one of them, run in-process through the
// dispatcher's main with process.exit and the console stubbed, and the message names WEBHOOK_SECRET, never the value.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../packages/cli/src/main.js';
import { secretFlagIn } from '../../packages/contract/src/shared/parse-flags.js';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

class Exit extends Error {
  constructor(readonly code: number | undefined) {
    super(`exit ${code}`);
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs `merchant-payments <words>` in-process; resolves to the exit code and what went to stderr and stdout. */
async function run(words: string[]): Promise<{ code: number | undefined; stderr: string; stdout: string }> {
  const stderr: string[] = [];
  const stdout: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...parts: unknown[]) => void stderr.push(parts.join(' ')));
  vi.spyOn(console, 'log').mockImplementation((...parts: unknown[]) => void stdout.push(parts.join(' ')));
  vi.spyOn(process, 'exit').mockImplementation((code?: string | number | null) => {
    throw new Exit(code === undefined || code === null ? undefined : Number(code));
  });
  try {
    const code = await main(words);
    return { code: code ?? undefined, stderr: stderr.join('\n'), stdout: stdout.join('\n') };
  } catch (error) {
    if (!(error instanceof Exit)) throw error;
    return { code: error.code, stderr: stderr.join('\n'), stdout: stdout.join('\n') };
  }
}

const commands = [
  ['sandbox'],
  ['mock', '--variant', 'b'],
  ['conformance', '--variant', 'a', '--base-url', 'http://127.0.0.1:9'],
  ['webhook', 'send', '--url', 'http://127.0.0.1:9/'],
  ['webhook', 'listen'],
  ['webhook', 'secret'],
];

describe('--webhook-secret', () => {
  it.each(commands.map((words) => [words.join(' '), words]))(
    'is refused by %s with exit 2, naming WEBHOOK_SECRET and not the value',
    async (_name, words) => {
      for (const flag of [['--webhook-secret', SECRET], [`--webhook-secret=${SECRET}`]]) {
        const { code, stderr, stdout } = await run([...words, ...flag]);
        expect(code).toBe(2);
        expect(stderr).toMatch(/--webhook-secret is not accepted.*set the WEBHOOK_SECRET environment variable instead/);
        expect(`${stderr}${stdout}`).not.toContain(SECRET);
      }
    },
  );

  it('is looked for before a -- only, so a command run beside a server may take it', () => {
    expect(secretFlagIn(['--port', '0', '--webhook-secret=x'])).toBe('--webhook-secret');
    expect(secretFlagIn(['--port', '0', '--', 'node', 'tool.js', '--webhook-secret', 'x'])).toBeUndefined();
  });
});
