// The hand-written halves of the routes held to the generated operation index: every operation it lists has its
// work (a command and a shape, or a control operation), and no key names an operation it does not list.
import { describe, expect, it } from 'vitest';
import { operationsOf } from '../../packages/contract/src/validation/index.js';
import { CONTROL_OPERATIONS } from '../../packages/sandbox/src/control/routes.js';
import { COMMANDS } from '../../packages/sandbox/src/variants/operation.js';
import { variantA } from '../../packages/sandbox/src/variants/variant-a.js';
import { variantB } from '../../packages/sandbox/src/variants/variant-b.js';

const ids = (api: 'a' | 'b' | 'sandbox') =>
  operationsOf(api)
    .map((op) => op.operationId)
    .sort();

describe('the routes', () => {
  it.each([variantA, variantB])(
    'of Variant $name: a shape for exactly the operations of its index, each with a command',
    (variant) => {
      expect(Object.keys(variant.shapes).sort()).toEqual(ids(variant.index));
      expect(ids(variant.index).filter((id) => !Object.hasOwn(COMMANDS, id))).toEqual([]);
    },
  );

  it('of both variants: a command for every merchant operation and no other', () => {
    expect(Object.keys(COMMANDS).sort()).toEqual([...new Set([...ids('a'), ...ids('b')])].sort());
  });

  it('of the control API: work for exactly the operations of its index', () => {
    expect(Object.keys(CONTROL_OPERATIONS).sort()).toEqual(ids('sandbox'));
  });
});
