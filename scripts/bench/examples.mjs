// Reads operations and named examples out of a bundled spec.

/** Operations of a bundled spec with their path parameters and first request-body example. */
export class BundledSpecExamples {
  /** `bundle` as openBundle (../lib/refs.mjs) returns it. */
  constructor({ doc, resolve }) {
    this.doc = doc;
    this.resolve = resolve;
  }

  /** The first named example of a request body or response. */
  firstExample(bodyOrResponse) {
    const examples = this.resolve(bodyOrResponse)?.content?.['application/json']?.examples;
    const first = examples && Object.values(examples)[0];
    return first && this.resolve(first).value;
  }

  /** `{ method, path, operationId, pathParams, body }` for every operation under `paths`. */
  operations() {
    const found = [];
    for (const [path, item] of Object.entries(this.doc.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        const op = item[method];
        if (!op) continue;
        const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
        const body = op.requestBody ? this.firstExample(op.requestBody) : undefined;
        found.push({ method: method.toUpperCase(), path, operationId: op.operationId, pathParams, body });
      }
    }
    return found;
  }

  /** The first example body of a webhook, e.g. `onStatusChange`. */
  webhookExample(name) {
    return this.firstExample(this.resolve(this.doc.webhooks[name]).post.requestBody);
  }
}
