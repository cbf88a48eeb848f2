// The README test moves every port off the defaults, so two runs on one machine never collide: these are its rules,
// checked on the README as it stands, without running anything.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root } from '../../scripts/lib/tools.mjs';
import { readmeSteps } from './readme-blocks.js';
import { moveCommandPorts, movePortsIn, README_PORTS, type PortMap } from './readme-ports.js';

const ports: PortMap = { 3000: 51000, 4010: 51010, 4011: 51011, 4020: 51020, 4030: 51030, 4040: 51040 };
const defaults = new RegExp(`\\b(${README_PORTS.join('|')})\\b`);
const steps = readmeSteps(readFileSync(path.join(root, 'README.md'), 'utf8'));

describe("the README test's ports", () => {
  it.each([
    [
      'npx merchant-payments mock --variant a -- node q.mjs',
      'npx merchant-payments mock --port 51010 --variant a -- node q.mjs',
    ],
    [
      'npx merchant-payments mock --variant b -- node q.mjs',
      'npx merchant-payments mock --port 51011 --variant b -- node q.mjs',
    ],
    [
      'npx merchant-payments mock --variant a,b -- npm test',
      'npx merchant-payments mock --port 51010 --variant a,b -- npm test',
    ],
    [
      'npx merchant-payments sandbox --clock manual --webhook-url http://127.0.0.1:3000/webhooks -- node f.mjs',
      'npx merchant-payments sandbox --port 51020 --clock manual --webhook-url http://127.0.0.1:51000/webhooks -- node f.mjs',
    ],
    [
      'npx merchant-payments webhook listen --port 4040 --forward-to http://127.0.0.1:3000/w',
      'npx merchant-payments webhook listen --port 51040 --forward-to http://127.0.0.1:51000/w',
    ],
    [
      'npx merchant-payments webhook send --url http://127.0.0.1:4040/',
      'npx merchant-payments webhook send --url http://127.0.0.1:51040/',
    ],
    [
      `npx merchant-payments sandbox -- sh -c 'npx merchant-payments conformance --variant b --sandbox'`,
      `npx merchant-payments sandbox --port 51020 -- sh -c 'npx merchant-payments conformance --webhook-port 51030 --variant b --sandbox'`,
    ],
    [
      'npx merchant-payments conformance --variant b --only fuzz',
      'npx merchant-payments conformance --variant b --only fuzz',
    ],
  ])('moves %j', (script, moved) => {
    expect(moveCommandPorts(script, ports)).toBe(moved);
  });

  it('leaves numbers that are not ports as they are', () => {
    expect(movePortsIn('const timeoutMs = 3000; // http://127.0.0.1:4010', ports)).toBe(
      'const timeoutMs = 3000; // http://127.0.0.1:51010',
    );
  });

  it('leaves no default port in any command the README runs', () => {
    const run = steps.flatMap((step) => (step.kind === 'command' && step.mode !== 'skip' ? [step.script] : []));
    expect(run.length).toBeGreaterThan(5);
    for (const script of run) {
      const moved = moveCommandPorts(script, ports);
      expect(moved, script).not.toMatch(defaults);
      // Every server of ours is given its port, rather than taking its default.
      for (const [, flags] of moved.matchAll(
        /merchant-payments (?:mock|sandbox|webhook listen)\b((?:(?! -- )[^\n'])*)/g,
      ))
        expect(flags, script).toMatch(/--port \d+/);
      for (const [, flags] of moved.matchAll(/merchant-payments conformance\b([^\n']*--sandbox[^\n']*)/g))
        expect(flags, script).toMatch(/--webhook-port \d+/);
    }
  });
});
