// Reads parameters and headers as OpenAPI serialises them (query: style form; path and header: style simple), turns
// their text into the JSON type the schema declares, and checks them against it.
import type { ParameterSpec } from './operation-index-types.js';
import { describeErrors } from './describe.js';
import { quote, sentence } from '../shared/text.js';
import type { Violation } from './types.js';

const LABEL: Record<ParameterSpec['in'], string> = {
  path: 'Path parameter',
  query: 'Query parameter',
  header: 'Header',
};
const INTEGER = /^-?(0|[1-9][0-9]*)$/;
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/**
 * The JSON value a parameter's text stands for, when the text is one; otherwise the text itself, so that the
 * schema's `type` reports it ("must be an integer").
 */
function coerce(text: string, type: ParameterSpec['type']): unknown {
  if (type === 'integer' && INTEGER.test(text)) return Number(text);
  if (type === 'number' && NUMBER.test(text)) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** The texts each parameter was sent with (none: absent): a query parameter may repeat, other places hold one text. */
export type ParameterTexts = (parameter: ParameterSpec) => string[];

/** What was read: each present (or defaulted) parameter's value by name, and what is wrong. */
export interface ReadParameters {
  values: Record<string, unknown>;
  violations: Violation[];
}

/** Where a parameter's violations point, and how their details name it. */
function subjectOf(parameter: ParameterSpec) {
  const label = `${LABEL[parameter.in]} ${quote(parameter.name)}`;
  return { in: parameter.in, pointer: `/${parameter.name.replaceAll('~', '~0').replaceAll('/', '~1')}`, label };
}

/** Reads and checks the parameters of one location; a required one that is absent is a violation. */
export function readParameters(parameters: readonly ParameterSpec[], texts: ParameterTexts): ReadParameters {
  const values: Record<string, unknown> = {};
  const violations: Violation[] = [];
  // Note: a parameter's subject is built only when it has a violation, which most requests do not.
  const violation = (parameter: ParameterSpec, detail: (label: string) => string) => {
    const { pointer, label } = subjectOf(parameter);
    violations.push({ in: parameter.in, pointer, detail: sentence(detail(label)) });
  };
  for (const parameter of parameters) {
    const sent = texts(parameter);
    if (sent.length === 0) {
      if (parameter.required) violation(parameter, (label) => `${label} is required`);
      else if (parameter.default !== undefined) values[parameter.name] = parameter.default;
      continue;
    }
    let value: unknown;
    if (parameter.type === 'array') {
      const items = parameter.explode ? sent : sent.flatMap((text) => text.split(','));
      value = items.map((text) => coerce(text, parameter.items ?? 'string'));
    } else if (sent.length > 1) {
      violation(parameter, (label) => `${label} must be given once, not ${sent.length} times`);
      continue;
    } else {
      value = coerce(sent[0]!, parameter.type);
    }
    if (parameter.validator(value)) values[parameter.name] = value;
    else violations.push(...describeErrors(parameter.validator.errors, subjectOf(parameter)));
  }
  return { values, violations };
}
