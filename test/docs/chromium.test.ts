import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium } from './chromium.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'chromium-path-'));
const executable = path.join(dir, 'chromium');
const plain = path.join(dir, 'not-executable');
writeFileSync(executable, '#!/bin/sh\n');
chmodSync(executable, 0o755);
writeFileSync(plain, '');
chmodSync(plain, 0o644);
const missing = path.join(dir, 'missing');

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Chromium of the browser tests', () => {
  it('is the one CHROMIUM_PATH names, before any usual place', () => {
    expect(findChromium({ CHROMIUM_PATH: executable }, [missing, '/bin/sh'])).toBe(executable);
  });

  it('is refused with a message naming CHROMIUM_PATH when it names no executable', () => {
    for (const chosen of [missing, plain]) {
      expect(() => findChromium({ CHROMIUM_PATH: chosen }, [executable])).toThrow(
        `CHROMIUM_PATH is set to ${chosen}, which is not an executable file: point it at a Chromium or Chrome binary.`,
      );
    }
  });

  it('is the first usual place that holds an executable when CHROMIUM_PATH is unset or empty', () => {
    expect(findChromium({}, [missing, plain, executable])).toBe(executable);
    expect(findChromium({ CHROMIUM_PATH: '' }, [executable])).toBe(executable);
  });

  it('is missing with a message listing every path tried and the variable to set', () => {
    expect(() => findChromium({}, [missing, plain])).toThrow(
      `No Chromium found for the browser tests; tried: ${missing}, ${plain}. Set CHROMIUM_PATH to a Chromium or Chrome executable, ` +
        "or install Debian's chromium package as .ci/run does.",
    );
  });
});
