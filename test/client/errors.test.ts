import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as errors from '../../packages/contract/src/client/errors/index.js';
import * as root from '../../packages/contract/src/index.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

// The first column of the table under "### Errors the client throws".
function listedErrors(): string[] {
  const section = readme.split('### Errors the client throws')[1]?.split('\n### ')[0] ?? '';
  return [...section.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]!);
}

describe('the errors the client throws', () => {
  it('are exactly the classes the README lists', () => {
    expect(listedErrors().sort()).toEqual(Object.keys(errors).sort());
  });

  it('are all exported from the package root as Error subclasses with their own name', () => {
    for (const [name, ErrorClass] of Object.entries(errors)) {
      expect(root[name as keyof typeof root], name).toBe(ErrorClass);
      expect(ErrorClass.prototype, name).toBeInstanceOf(Error);
    }
    expect(new errors.NetworkError({ method: 'GET', url: 'https://x.example/', attempts: 1 }).name).toBe(
      'NetworkError',
    );
    expect(
      new errors.RedirectError({
        method: 'GET',
        url: 'https://x.example/',
        attempts: 1,
        status: 302,
        location: undefined,
        why: 'w',
      }).name,
    ).toBe('RedirectError');
  });
});
