import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { openBundle } from '../../scripts/lib/refs.mjs';

/** A JSON value read from a bundled spec. */
export type Node = Record<string, any>;

/** The HTTP methods an OpenAPI path item may hold. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** One operation of a path or a webhook, with where it sits in the bundled file. */
export interface Operation {
  method: string;
  /** The path template, or the webhook's name for a webhook. */
  path: string;
  operationId: string;
  node: Node;
  pathItem: Node;
  /** JSON pointer of the operation in the bundled file. */
  pointer: string;
}

/** A parameter as the operation sees it: `node` as written (maybe a $ref), `value` resolved. */
export interface Parameter {
  name: string;
  in: string;
  node: Node;
  value: Node;
  /** Name of the component it references, if any. */
  component: string | undefined;
}

const escape = (segment: string) => segment.replaceAll('~', '~0').replaceAll('/', '~1');
const unescape = (segment: string) => segment.replaceAll('~1', '/').replaceAll('~0', '~');

/** Reads one bundled spec (packages/contract/generated/openapi/<name>.yaml) and answers questions about it. */
export class BundledSpec {
  /** Opens packages/contract/generated/openapi/<name>.yaml; `label` names it in messages. */
  static async open(label: string, name: string): Promise<BundledSpec> {
    const file = `packages/contract/generated/openapi/${name}.yaml`;
    return new BundledSpec(label, file, await openBundle(fileURLToPath(new URL(`../../${file}`, import.meta.url))));
  }

  readonly doc: Node;

  private constructor(
    readonly label: string,
    readonly file: string,
    private readonly refs: Awaited<ReturnType<typeof openBundle>>,
  ) {
    this.doc = refs.doc;
  }

  /** Follows a node's `$ref`; keywords written next to the `$ref` win over the referenced ones. */
  resolve(node: Node): Node {
    return this.refs.resolve(node);
  }

  /** A deep copy with every `$ref` replaced by what it points at. */
  expand(node: unknown): unknown {
    return this.refs.expand(node);
  }

  /** Name of the component a node references (`Money` for `#/components/schemas/Money`). */
  refName(node: Node | undefined): string | undefined {
    const ref = node?.$ref;
    return typeof ref === 'string' ? unescape(ref.split('/').pop() ?? '') : undefined;
  }

  /** Every operation under `paths`. */
  operations(): Operation[] {
    return this.collect(this.doc.paths ?? {}, '/paths');
  }

  /** Every operation under `webhooks`; `path` is the webhook's name. */
  webhooks(): Operation[] {
    return this.collect(this.doc.webhooks ?? {}, '/webhooks');
  }

  private collect(items: Node, base: string): Operation[] {
    const found: Operation[] = [];
    for (const [path, item] of Object.entries(items)) {
      const pathItem = this.resolve(item as Node);
      for (const method of HTTP_METHODS) {
        const node = pathItem[method] as Node | undefined;
        if (!node) continue;
        const pointer = `${base}/${escape(path)}/${method}`;
        found.push({ method: method.toUpperCase(), path, operationId: node.operationId, node, pathItem, pointer });
      }
    }
    return found;
  }

  /** The operation (or webhook operation) with this operationId. */
  operation(operationId: string): Operation | undefined {
    return [...this.operations(), ...this.webhooks()].find((op) => op.operationId === operationId);
  }

  /** Path-level and operation-level parameters; the operation's win on the same name and location. */
  parameters(op: Operation): Parameter[] {
    const byKey = new Map<string, Parameter>();
    for (const node of [...(op.pathItem.parameters ?? []), ...(op.node.parameters ?? [])] as Node[]) {
      const value = this.resolve(node);
      byKey.set(`${value.in}:${value.name}`, {
        name: value.name,
        in: value.in,
        node,
        value,
        component: this.refName(node),
      });
    }
    return [...byKey.values()];
  }

  /** The resolved request body of an operation, if it has one. */
  requestBody(op: Operation): Node | undefined {
    return op.node.requestBody ? this.resolve(op.node.requestBody) : undefined;
  }

  /** The resolved response for a status code, if the operation lists it. */
  response(op: Operation, code: string): Node | undefined {
    const node = op.node.responses?.[code] as Node | undefined;
    return node ? this.resolve(node) : undefined;
  }

  /** The schema of a body (request body or response) for a media type, as written (maybe a $ref). */
  bodySchema(body: Node | undefined, mediaType = 'application/json'): Node | undefined {
    return body?.content?.[mediaType]?.schema;
  }

  /**
   * The properties of an object schema, with `allOf` merged. A property that several `allOf` members
   * define becomes `{ allOf: [...] }` of all of them, as JSON Schema applies all of them.
   */
  properties(schema: Node | undefined): Map<string, Node> {
    const merged = new Map<string, Node[]>();
    const visit = (node: Node) => {
      const value = this.resolve(node);
      for (const [name, property] of Object.entries(value.properties ?? {})) {
        merged.set(name, [...(merged.get(name) ?? []), property as Node]);
      }
      for (const member of (value.allOf ?? []) as Node[]) visit(member);
    };
    if (schema) visit(schema);
    return new Map([...merged].map(([name, nodes]) => [name, nodes.length === 1 ? nodes[0]! : { allOf: nodes }]));
  }

  /** The schema of a dotted field (`requisite.card_number`), or undefined when any step is missing. */
  field(schema: Node | undefined, dotted: string): Node | undefined {
    let current = schema;
    for (const name of dotted.split('.')) {
      if (!current) return undefined;
      current = this.properties(current).get(name);
    }
    return current;
  }

  /** The JSON types a schema allows, from `type`, `const` and its `allOf`, `anyOf` and `oneOf` members. */
  types(schema: Node): Set<string> {
    const found = new Set<string>();
    const visit = (node: Node) => {
      const value = this.resolve(node);
      for (const type of [value.type ?? []].flat() as string[]) found.add(type);
      if ('const' in value) found.add(value.const === null ? 'null' : typeof value.const);
      for (const member of [value.allOf ?? [], value.anyOf ?? [], value.oneOf ?? []].flat() as Node[]) visit(member);
    };
    visit(schema);
    return found;
  }

  /** The keyword reasons in `x-assumed` of a schema and of its `allOf` members. */
  assumedKeywords(schema: Node): Record<string, string> {
    const value = this.resolve(schema);
    const own = (value['x-assumed'] ?? {}) as Record<string, string>;
    return Object.assign({}, ...((value.allOf ?? []) as Node[]).map((m) => this.assumedKeywords(m)), own);
  }

  /** True when the node, or what it references, is marked `x-provenance: assumed`. */
  isAssumed(node: Node | undefined): boolean {
    if (!node) return false;
    return node['x-provenance'] === 'assumed' || this.resolve(node)['x-provenance'] === 'assumed';
  }

  /** The items of an array schema, or the schema itself when it is not an array. */
  itemsOf(schema: Node): Node {
    const value = this.resolve(schema);
    return this.types(value).has('array') && value.items ? (value.items as Node) : schema;
  }
}

/** Strips the Variant B prefix and blanks path parameter names: `/merchant/v1/payments/{paymentId}` → `/payments/{}`. */
export function normalisePath(path: string): string {
  return path.replace(/^\/merchant\/v1(?=\/)/, '').replace(/\{[^}]*\}/g, '{}');
}

/** JSON pointer of the first place where two values differ, or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const key of keys) {
      const found = firstDifference((a as Node)[key], (b as Node)[key], `${at}/${escape(key)}`);
      if (found !== undefined) return found;
    }
  }
  return at || '/';
}
