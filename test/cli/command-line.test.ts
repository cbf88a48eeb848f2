// The words of a command that runs another beside its server (`mock`, `sandbox`): a `--` with nothing after it is a
// usage error that says so, and no `--` at all is not one, so that a bare `merchant-payments mock` hears about what it
// does lack (--variant). Run in-process through the mock's main, which fails before it would start Prism.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../packages/cli/src/mock/command.js';
import { runMain } from './run-main.js';

afterEach(() => vi.restoreAllMocks());

describe('merchant-payments mock, on the words given', () => {
  it('asks a bare run for --variant, and names no `--` it was not given', async () => {
    const { code, stderr } = await runMain(main, []);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^merchant-payments mock: --variant must be "a", "b" or "a,b"\n/);
    expect(stderr).not.toContain('a command must follow');
  });

  it('asks for the command when `--` ends the words', async () => {
    const { code, stderr } = await runMain(main, ['--variant', 'a', '--']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^merchant-payments mock: a command must follow --\n/);
  });

  it('prefixes its lines with the command as it is typed, not the old name merchant-payments-mock', async () => {
    const { stderr } = await runMain(main, ['--variant', 'c']);
    expect(stderr).toMatch(/^merchant-payments mock: --variant must be "a", "b" or "a,b", got "c"/);
    expect(stderr).not.toMatch(/^merchant-payments-mock:/m);
  });

  it('takes --verbose, documented in its usage', async () => {
    const { code, stdout } = await runMain(main, ['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/\[--verbose\] \[-- <command> \[args\.\.\.\]\]/);
    expect(stdout).toMatch(/^ {2}--verbose {10}with -- <command>, print Prism's log too/m);
  });
});
