// Finds the operation a concrete request path and method address in a variant, with its path parameters.
import type { Api, OperationSpec } from './types.js';
import { operationsOf } from './spec.js';

/** What a method and path address: an operation and its path parameters, a path that has other methods, or nothing. */
export type OperationMatch =
  | { kind: 'operation'; operation: OperationSpec; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

interface Route {
  operation: OperationSpec;
  /** Each segment of the template: literal text, or the name of a parameter (`{ name }`). */
  segments: (string | { name: string })[];
  literals: number;
}

const routes = new Map<Api, Route[]>();

function routesOf(variant: Api): Route[] {
  let found = routes.get(variant);
  if (!found) {
    found = operationsOf(variant).map((operation) => {
      const segments = operation.path.split('/').map((segment) => {
        const parameter = /^\{([^}]+)\}$/.exec(segment);
        return parameter ? { name: parameter[1]! } : segment;
      });
      return { operation, segments, literals: segments.filter((segment) => typeof segment === 'string').length };
    });
    // Note: a literal segment wins over a parameter in the same place (OpenAPI: concrete paths match first).
    found.sort((a, b) => b.literals - a.literals);
    routes.set(variant, found);
  }
  return found;
}

/** The parameters of a path that fits a route, or undefined; a segment that is not valid percent-encoding fits nothing. */
function fit(route: Route, segments: string[]): Record<string, string> | undefined {
  if (route.segments.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, expected] of route.segments.entries()) {
    const actual = segments[i]!;
    if (typeof expected === 'string') {
      if (expected !== actual) return undefined;
      continue;
    }
    if (actual === '') return undefined;
    try {
      params[expected.name] = decodeURIComponent(actual);
    } catch {
      return undefined;
    }
  }
  return params;
}

/** The operation of `variant` that `method` and `path` (a pathname; a query string is ignored) address. */
export function matchOperation(variant: Api, method: string, path: string): OperationMatch {
  const segments = path.split('?')[0]!.split('/');
  const upper = method.toUpperCase();
  const allowed: string[] = [];
  for (const route of routesOf(variant)) {
    const params = fit(route, segments);
    if (!params) continue;
    if (route.operation.method === upper) return { kind: 'operation', operation: route.operation, params };
    if (!allowed.includes(route.operation.method)) allowed.push(route.operation.method);
  }
  return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
}
