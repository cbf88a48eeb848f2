// Reads a bundled spec for the client tests: its operations and the examples of their responses and request bodies.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

type Node = Record<string, any>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One example of a response: its status, example name and value. */
export interface ResponseExample {
  status: number;
  name: string;
  value: unknown;
}

/** One operation under `paths`, with its examples resolved. */
export interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
  /** Every example of every response, by status and name. */
  examples: ResponseExample[];
  /** The request body's examples by name, when the operation takes a body. */
  requestExamples: Record<string, unknown> | undefined;
}

/** The operations of `generated/openapi/variant-<a|b>.yaml`, in the order the spec lists them. */
export function specOperations(variant: 'A' | 'B'): SpecOperation[] {
  const url = new URL(`../../generated/openapi/variant-${variant.toLowerCase()}.yaml`, import.meta.url);
  const doc = parse(readFileSync(url, 'utf8')) as Node;
  const resolve = (node: Node): Node => {
    let current = node;
    while (typeof current?.$ref === 'string') {
      current = current.$ref.slice(2).split('/').reduce((value: Node, key: string) => value?.[key.replaceAll('~1', '/')], doc);
    }
    return current;
  };
  const examplesOf = (content: Node | undefined) =>
    Object.fromEntries(
      Object.values(content ?? {}).flatMap((media: Node) =>
        Object.entries(media.examples ?? {}).map(([name, example]) => [name, resolve(example as Node).value]),
      ),
    );
  return Object.entries(doc.paths as Node).flatMap(([path, item]) =>
    METHODS.filter((method) => resolve(item)[method]).map((method) => {
      const op = resolve(item)[method] as Node;
      const examples = Object.entries(op.responses as Node).flatMap(([status, response]) =>
        Object.entries(examplesOf(resolve(response).content)).map(([name, value]) => ({ status: Number(status), name, value })),
      );
      const body = op.requestBody ? resolve(op.requestBody) : undefined;
      return { operationId: op.operationId, method: method.toUpperCase(), path, examples, requestExamples: body && examplesOf(body.content) };
    }),
  );
}
