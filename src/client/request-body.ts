// Request bodies kept as openapi-fetch serialized them, so that every attempt sends the same bytes without copying streams.

/** Where a client keeps the serialized body of each Request it builds. */
export interface BodyStore {
  /** The Request constructor to hand openapi-fetch: it builds real Requests and keeps each string body. */
  Request: typeof Request;
  /** The string body `request` was built with, when it was built here. */
  get(request: Request): string | undefined;
  /** True when `request` can be sent more than once without a clone: it has no body, or its body is kept here. */
  replayable(request: Request): boolean;
  /** A Request for the next attempt: `request` itself when it has no body, a copy with the kept body, or a clone. */
  again(request: Request): Request;
}

/** A BodyStore for one client. */
export function createBodyStore(): BodyStore {
  const bodies = new WeakMap<Request, string>();
  // Note: a Request's body is a one-shot stream: sending it again takes clone() (a tee of the stream)
  // or a copy (a TransformStream), the most expensive steps of a request in Node. openapi-fetch builds
  // every request through its `Request` option, so keeping the string it passes lets each attempt hand
  // fetch that string instead. This function returns a real Request and shares Request.prototype, so
  // `instanceof` still holds for any Request a middleware returns.
  function KeepingRequest(input: RequestInfo | URL, init?: RequestInit): Request {
    const request = new Request(input, init);
    if (typeof init?.body === 'string') bodies.set(request, init.body);
    return request;
  }
  KeepingRequest.prototype = Request.prototype;
  const replayable = (request: Request) => request.body === null || bodies.has(request);
  return {
    Request: KeepingRequest as unknown as typeof Request,
    get: (request) => bodies.get(request),
    replayable,
    again(request) {
      const body = bodies.get(request);
      if (body !== undefined) return KeepingRequest(request, { body });
      return request.body === null ? request : request.clone();
    },
  };
}
