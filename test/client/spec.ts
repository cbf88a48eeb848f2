// Reads a bundled spec for the client tests: its operations and the examples of their responses and request bodies.
import { BundledSpec, type Node } from '../contract/bundled-spec.js';

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

/** The operations of `packages/contract/generated/openapi/variant-<a|b>.yaml`, in the order the spec lists them. */
export async function specOperations(variant: 'A' | 'B'): Promise<SpecOperation[]> {
  const spec = await BundledSpec.open(`Variant ${variant}`, `variant-${variant.toLowerCase()}`);
  const examplesOf = (content: Node | undefined) =>
    Object.fromEntries(
      Object.values(content ?? {}).flatMap((media: Node) =>
        Object.entries(media.examples ?? {}).map(([name, example]) => [name, spec.resolve(example as Node).value]),
      ),
    );
  return spec.operations().map((op) => {
    const examples = Object.keys(op.node.responses as Node).flatMap((status) =>
      Object.entries(examplesOf(spec.response(op, status)?.content)).map(([name, value]) => ({
        status: Number(status),
        name,
        value,
      })),
    );
    const body = spec.requestBody(op);
    return {
      operationId: op.operationId,
      method: op.method,
      path: op.path,
      examples,
      requestExamples: body && examplesOf(body.content),
    };
  });
}
