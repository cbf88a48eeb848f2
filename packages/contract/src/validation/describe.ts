// Turns the errors of a generated validator into violations whose details say what is wrong in words.
import type { SchemaError } from '../../generated/operations/validators.js';
import { quote, sentence } from '../shared/text.js';
import type { Violation, ViolationLocation } from './types.js';

/** Where the value a validator checked sits: its location, and the pointer its own errors are relative to. */
export interface Subject {
  in: ViolationLocation;
  pointer: string;
  /** How a parameter is named at the start of a detail (`Query parameter "limit"`); none for a body. */
  label?: string;
}

const escapeSegment = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');

const ARTICLE: Record<string, string> = { integer: 'an integer', object: 'an object', array: 'an array', null: 'null' };
const typeName = (type: string) => ARTICLE[type] ?? `a ${type}`;
const plural = (count: number, noun: string, nouns = `${noun}s`) => `${count} ${count === 1 ? noun : nouns}`;

/** What a keyword's failure means, as a predicate ("must be at least 1"); the subject comes from the pointer. */
function predicate(error: SchemaError): string {
  const p = error.params;
  switch (error.keyword) {
    case 'type':
      return `must be ${String(p.type).split(',').map(typeName).join(' or ')}`;
    case 'required':
      return `required property ${quote(p.missingProperty)} is missing`;
    case 'additionalProperties':
      return `unknown property ${quote(p.additionalProperty)}`;
    case 'maxLength':
      return `must be a string of at most ${plural(Number(p.limit), 'character')}`;
    case 'minLength':
      return Number(p.limit) === 1
        ? 'must not be empty'
        : `must be a string of at least ${plural(Number(p.limit), 'character')}`;
    case 'pattern':
      return `must match the pattern ${String(p.pattern)}`;
    case 'format':
      return `must be a valid ${String(p.format)}`;
    case 'minimum':
      return `must be at least ${String(p.limit)}`;
    case 'maximum':
      return `must be at most ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(p.limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(p.multipleOf)}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map(quote).join(', ')}`;
    case 'const':
      return `must be ${quote(p.allowedValue)}`;
    case 'maxItems':
      return `must have at most ${plural(Number(p.limit), 'item')}`;
    case 'minItems':
      return `must have at least ${plural(Number(p.limit), 'item')}`;
    case 'maxProperties':
      return `must have at most ${plural(Number(p.limit), 'property', 'properties')}`;
    case 'minProperties':
      return `must have at least ${plural(Number(p.limit), 'property', 'properties')}`;
    case 'uniqueItems':
      return `must not repeat items (items ${String(p.j)} and ${String(p.i)} are equal)`;
    case 'dependentRequired':
      return `property ${quote(p.missingProperty)} is required when ${quote(p.property)} is present`;
    default:
      return error.message ?? `fails the ${error.keyword} rule of the schema`;
  }
}

/** The pointer an error is about: a missing or unknown property, a property name, or the value itself. */
function pointerOf(error: SchemaError): string {
  const child = error.params.missingProperty ?? error.params.additionalProperty ?? error.propertyName;
  return typeof child === 'string' ? `${error.instancePath}/${escapeSegment(child)}` : error.instancePath;
}

/** True for an error that only restates others: a failed `if` (its branch reports), a propertyNames summary. */
const isSummary = (error: SchemaError, errors: readonly SchemaError[]) =>
  error.keyword === 'if' ||
  (error.keyword === 'propertyNames' && errors.some((other) => other.propertyName !== undefined)) ||
  // Note: int32 and int64 restate a minimum or maximum that already failed at the same place.
  (error.keyword === 'format' &&
    /^int(32|64)$/.test(String(error.params.format)) &&
    errors.some((other) => other !== error && other.instancePath === error.instancePath));

/** The violations behind a validator's errors, for a value at `subject`. */
export function describeErrors(errors: readonly SchemaError[] | null | undefined, subject: Subject): Violation[] {
  const list = errors ?? [];
  return list
    .filter((error) => !isSummary(error, list))
    .map((error) => {
      const at = pointerOf(error);
      const pointer = `${subject.pointer}${at}`;
      let text = predicate(error);
      if (error.propertyName !== undefined) text = `property name ${quote(error.propertyName)} ${text}`;
      return {
        in: subject.in,
        pointer,
        detail: sentence(subject.label && at === '' ? `${subject.label} ${text}` : text),
      };
    });
}
