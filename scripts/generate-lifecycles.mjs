// Writes packages/contract/generated/sandbox/lifecycles.ts from the `x-lifecycle` of the shared status schemas, so that the
// sandbox runs the contract's own transition table (packages/contract/openapi/README.md, "Lifecycles"). Run by npm run generate.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { root } from './lib/tools.mjs';

const schemasDir = 'packages/contract/openapi/components/schemas';

/** Where the table is written. */
export const lifecyclesPath = 'packages/contract/generated/sandbox/lifecycles.ts';

/** The status schema of each kind of object. */
export const statusSchemas = { payment: 'PaymentStatus', payout: 'PayoutStatus', appeal: 'AppealStatus' };

/** What may move an object, as packages/contract/openapi/README.md lists it. */
export const triggers = [
  'api:create',
  'api:confirm',
  'api:cancel',
  'api:refund',
  'clock:processing',
  'clock:expires_at',
];

/** Reads one schema file, failing with a message that names it. */
function readSchema(name) {
  const file = path.join(schemasDir, `${name}.yaml`);
  if (!existsSync(path.join(root, file))) throw new Error(`generate-lifecycles: missing input ${file}`);
  return { file, schema: parse(readFileSync(path.join(root, file), 'utf8')) };
}

/** Checks one status schema's rows against its enum and the ReasonCode enum; returns them normalised. */
export function checkLifecycle(file, schema, reasonCodes) {
  const fail = (message) => {
    throw new Error(`generate-lifecycles: ${file}: ${message}`);
  };
  const statuses = schema.enum;
  if (!Array.isArray(statuses) || statuses.length === 0) fail('has no enum of statuses');
  const rows = schema['x-lifecycle']?.transitions;
  if (!Array.isArray(rows) || rows.length === 0) fail('has no x-lifecycle.transitions');
  const seen = new Set();
  const out = rows.map((row, i) => {
    const at = `x-lifecycle.transitions[${i}]`;
    const from = row.from ?? null;
    if (from !== null && (!Array.isArray(from) || from.length === 0))
      fail(`${at}.from must be null or a non-empty list`);
    for (const status of [...(from ?? []), row.to])
      if (!statuses.includes(status)) fail(`${at} names ${JSON.stringify(status)}, not in the enum`);
    if (!triggers.includes(row.trigger))
      fail(`${at}.trigger ${JSON.stringify(row.trigger)} is not one of ${triggers.join(', ')}`);
    if (!reasonCodes.includes(row.reason_code ?? null))
      fail(`${at}.reason_code ${JSON.stringify(row.reason_code)} is not a ReasonCode value`);
    if ((from === null) !== (row.trigger === 'api:create'))
      fail(`${at}: only the creation row (from: null) has trigger api:create`);
    if (typeof row.when !== 'string' || row.when.trim() === '') fail(`${at}.when must say when the transition happens`);
    for (const status of from ?? [null]) {
      const key = JSON.stringify([status, row.to, row.trigger, row.reason_code ?? null]);
      if (seen.has(key)) fail(`${at} repeats a transition listed before it`);
      seen.add(key);
    }
    return { from, to: row.to, trigger: row.trigger, reason_code: row.reason_code ?? null, when: row.when.trim() };
  });
  if (out.filter((row) => row.from === null).length !== 1) fail('needs exactly one creation row (from: null)');
  for (const status of statuses) if (!out.some((row) => row.to === status)) fail(`no transition leads to ${status}`);
  return { statuses, transitions: out };
}

/**
 * The values of an enum, with null where the schema also takes null: a plain `enum`, or (as ReasonCode is written, so
 * that generators which take only strings in `enum` compile) `anyOf` of a string enum and `type: 'null'`.
 */
export function nullableEnum(schema) {
  if (Array.isArray(schema.enum)) return schema.enum;
  const values = schema.anyOf?.find((branch) => Array.isArray(branch.enum))?.enum;
  if (!values) return undefined;
  return schema.anyOf.some((branch) => branch.type === 'null') ? [...values, null] : values;
}

/** Renders packages/contract/generated/sandbox/lifecycles.ts from the status schemas. */
export function renderLifecycles() {
  const reason = readSchema('ReasonCode');
  const reasonCodes = nullableEnum(reason.schema);
  if (!reasonCodes) throw new Error(`generate-lifecycles: ${reason.file} has no enum`);
  const q = (value) =>
    Array.isArray(value)
      ? `[${value.map(q).join(', ')}]`
      : value === null
        ? 'null'
        : `'${String(value).replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  const kinds = Object.entries(statusSchemas).map(([kind, name]) => {
    const { file, schema } = readSchema(name);
    const { statuses, transitions } = checkLifecycle(file, schema, reasonCodes);
    const rows = transitions.map(
      (t) =>
        `      { from: ${q(t.from)}, to: ${q(t.to)}, trigger: ${q(t.trigger)}, reason_code: ${q(t.reason_code)}, when: ${q(t.when)} },`,
    );
    return [`  ${kind}: {`, `    statuses: ${q(statuses)},`, '    transitions: [', ...rows, '    ],', '  },'].join(
      '\n',
    );
  });
  const sources = Object.values(statusSchemas).join(',');
  return `// Generated by scripts/generate-lifecycles.mjs from the x-lifecycle of ${schemasDir}/{${sources}}.yaml.
// Do not edit: change those schemas and run npm run generate.

/** Every reason_code value (ReasonCode.yaml); null means no reason. */
export const REASON_CODES = ${q(reasonCodes)} as const;

/** What may move an object from one status to another (packages/contract/openapi/README.md, "Lifecycles"). */
export const TRIGGERS = ${q(triggers)} as const;

/** Statuses and transitions of each kind of object, one row per transition; \`from: null\` creates the object. */
export const LIFECYCLES = {
${kinds.join('\n')}
} as const;
`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    const target = path.join(root, lifecyclesPath);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, renderLifecycles());
    console.log(`generated ${lifecyclesPath}`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
