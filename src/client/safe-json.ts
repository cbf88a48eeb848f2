// JSON from a server, kept from reaching any prototype: a `__proto__` key, or a `constructor` that holds a `prototype`,
// would change the prototype of whatever the value is later copied into (`Object.assign`, a spread of a nested object).
import secureJson from 'secure-json-parse';

// Note: removed rather than refused, so that the rest of an answer (a payment that was created) still reaches the caller.
const OPTIONS = { protoAction: 'remove', constructorAction: 'remove' } as const;
// The values parseJson returned, so that the result of a call is not walked a second time.
const clean = new WeakSet<object>();

/** JSON.parse with every `__proto__` key and every `constructor` holding a `prototype` removed; throws SyntaxError. */
export function parseJson(text: string): unknown {
  const value: unknown = secureJson.parse(text, null, OPTIONS);
  if (value !== null && typeof value === 'object') clean.add(value);
  return value;
}

/** The same removal on a value parsed elsewhere: openapi-fetch parses error bodies, and bodies without Content-Length, itself. */
export function withoutPrototypeKeys<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !clean.has(value)) {
    secureJson.scan(value, OPTIONS);
    clean.add(value);
  }
  return value;
}

/** A call's result with `data` and `error` cleaned as withoutPrototypeKeys does. */
export function cleanResult<Result extends { data?: unknown; error?: unknown }>(result: Result): Result {
  withoutPrototypeKeys(result.data);
  withoutPrototypeKeys(result.error);
  return result;
}
