// The contract's bounds on metadata, kept by the core itself: the request check normally refuses a metadata past them
// first, but with `validate: false` the core would otherwise store any depth and size, and a body nested thousands
// deep would overflow the stack when it is copied.
import { failure, type Answer } from './answer.js';

/** The bounds of packages/contract/openapi/components/schemas/Metadata.yaml; test/sandbox/validation.test.ts holds them to the bundle. */
export const METADATA_BOUNDS = { maxKeys: 50, maxKeyLength: 40, maxValueLength: 500 } as const;

const CONTROL = /[\x00-\x1F\x7F]/;
const pointer = (key: string) => `/metadata/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** 422 validation_failed naming the first place a request's metadata breaks its bounds; undefined when it keeps them. */
export function metadataRefusal(metadata: unknown): Answer<never> | undefined {
  if (metadata === undefined) return undefined;
  const refuse = (at: string, detail: string) =>
    failure('validation_failed', `${at}: ${detail}`, [{ pointer: at, detail }]);
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))
    return refuse('/metadata', 'Must be an object.');
  const keys = Object.keys(metadata);
  if (keys.length > METADATA_BOUNDS.maxKeys)
    return refuse('/metadata', `Must have at most ${METADATA_BOUNDS.maxKeys} properties.`);
  for (const key of keys) {
    if (key.length < 1 || key.length > METADATA_BOUNDS.maxKeyLength || CONTROL.test(key)) {
      return refuse(
        pointer(key),
        `A key must have 1 to ${METADATA_BOUNDS.maxKeyLength} characters and no control characters.`,
      );
    }
    const value = (metadata as Record<string, unknown>)[key];
    if (typeof value !== 'string' || value.length > METADATA_BOUNDS.maxValueLength || CONTROL.test(value)) {
      return refuse(
        pointer(key),
        `Must be a string of at most ${METADATA_BOUNDS.maxValueLength} characters without control characters.`,
      );
    }
  }
  return undefined;
}
