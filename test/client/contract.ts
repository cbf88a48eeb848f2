// Runs one variant's typed client against its Prism mock: every operation, every example the spec gives, 401, and invalid bodies.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { isProblem, type ClientOptions, type FetchLike } from '../../packages/contract/src/index.js';
import { specOperations, type ResponseExample, type SpecOperation } from './spec.js';

/** What a typed client call resolves to. */
export interface CallResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** One operation called through the typed client, with extra headers (e.g. Prism's `Prefer`). */
export type OperationCall<Client> = (client: Client, headers: Record<string, string>) => Promise<CallResult>;

/** A call whose body breaks the schema at `field`. */
export interface InvalidBodyCall<Client> {
  field: string;
  call: (client: Client) => Promise<CallResult>;
}

/** What the runner needs to know of a variant. */
export interface ContractSuite<Client> {
  variant: 'A' | 'B';
  /** Builds the variant's client with test credentials. */
  create: (options: ClientOptions) => Client;
  /** Header sets whose removal must give 401. */
  credentialSets: readonly (readonly string[])[];
  /** One call per operationId. */
  calls: Record<string, OperationCall<Client>>;
  /** One call per operation with a request body, with a body that breaks the schema. */
  invalidBodies: Record<string, InvalidBodyCall<Client>>;
}

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** Declares the contract tests of one variant. */
export async function describeContract<Client>(suite: ContractSuite<Client>): Promise<void> {
  const operations = await specOperations(suite.variant);
  const sent: Sent[] = [];
  const recording: FetchLike = async (request) => {
    sent.push({
      method: request.method,
      url: request.url,
      headers: new Headers(request.headers),
      body: await request.clone().text(),
    });
    return fetch(request);
  };
  const lastSent = () => sent.at(-1)!;
  let client: Client;
  let baseUrl: string;

  beforeAll(() => {
    baseUrl = inject('mockUrls')[suite.variant];
    client = suite.create({ baseUrl, fetch: recording, retry: false });
  });

  describe(`Variant ${suite.variant} client against the contract mock`, () => {
    it('has a call for every operation of the bundled spec, and for nothing else', () => {
      expect(Object.keys(suite.calls).sort()).toEqual(operations.map((op) => op.operationId).sort());
    });

    it('finds a success example and a 401, 404 or 422 example to check on every operation', () => {
      for (const op of operations) {
        const statuses = op.examples.map((example) => example.status);
        expect(
          statuses.some((status) => status >= 200 && status < 300),
          op.operationId,
        ).toBe(true);
        expect(statuses, op.operationId).toContain(401);
        expect(statuses, op.operationId).toContain(422);
      }
    });

    it('has an invalid-body call for every operation that takes a body', () => {
      const withBody = operations.filter((op) => op.requestExamples).map((op) => op.operationId);
      expect(withBody.length).toBeGreaterThan(0);
      expect(Object.keys(suite.invalidBodies).sort()).toEqual(withBody.sort());
    });

    const exampleCases = operations.flatMap((op) =>
      op.examples.map(
        (example) =>
          [`${op.operationId} answers ${example.status} ${example.name} as the spec's example`, op, example] as const,
      ),
    );
    it.each(exampleCases)('%s', async (_title, op: SpecOperation, example: ResponseExample) => {
      const { data, error, response } = await suite.calls[op.operationId]!(client, {
        Prefer: `code=${example.status}, example=${example.name}`,
      });
      expectSentTo(lastSent(), op);
      expect(response.headers.get('sl-violations'), 'the mock found the request invalid').toBeNull();
      expect(response.status).toBe(example.status);
      if (example.status < 300) {
        expect(error).toBeUndefined();
        expect(data).toEqual(example.value);
      } else {
        expect(data).toBeUndefined();
        expect(isProblem(error)).toBe(true);
        expect(error).toEqual(example.value);
      }
    });

    const bodyCases = operations.filter((op) => op.requestExamples).map((op) => [op.operationId, op] as const);
    it.each(bodyCases)("%s sends the body of the spec's request example", async (_id, op: SpecOperation) => {
      const { response } = await suite.calls[op.operationId]!(client, {});
      expect(response.status).toBe(200);
      expect(Object.values(op.requestExamples!)).toContainEqual(JSON.parse(lastSent().body));
    });

    const unauthorizedCases = operations.flatMap((op) =>
      suite.credentialSets.map(
        (headers) => [`${op.operationId} answers 401 without ${headers.join(' and ')}`, op, headers] as const,
      ),
    );
    it.each(unauthorizedCases)('%s', async (_title, op: SpecOperation, headers: readonly string[]) => {
      const stripping: FetchLike = (request) => {
        headers.forEach((name) => request.headers.delete(name));
        return recording(request);
      };
      const anonymous = suite.create({ baseUrl, fetch: stripping, retry: false });
      const { data, error, response } = await suite.calls[op.operationId]!(anonymous, {});
      headers.forEach((name) => expect(lastSent().headers.has(name)).toBe(false));
      expect(response.status).toBe(401);
      expect(data).toBeUndefined();
      expect(error).toMatchObject({ status: 401, code: 'unauthorized' });
    });

    it.each(Object.entries(suite.invalidBodies))(
      '%s with a body that breaks the schema answers 422',
      async (_id, invalid) => {
        const { data, error, response } = await invalid.call(client);
        expect(response.status).toBe(422);
        expect(data).toBeUndefined();
        expect(error).toMatchObject({ status: 422, code: 'validation_failed' });
        // Note: Prism locates a wrong value at the field, and a missing required field at the body, naming it.
        const violations = JSON.parse(response.headers.get('sl-violations') ?? '[]') as {
          location: string[];
          message: string;
        }[];
        const named = violations.filter(
          (v) => v.location.join('.') === `request.body.${invalid.field}` || v.message.includes(`'${invalid.field}'`),
        );
        expect(named, JSON.stringify(violations)).not.toHaveLength(0);
      },
    );

    it('sends a generated Idempotency-Key the contract accepts, and is refused without one', async () => {
      const post = operations.find((op) => op.method === 'POST')!;
      const withKey = await suite.calls[post.operationId]!(client, {});
      expect(withKey.response.status).toBe(200);
      expect(lastSent().headers.get('idempotency-key')).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );

      const keyless = suite.create({ baseUrl, fetch: recording, retry: false, generateIdempotencyKey: false });
      const { error, response } = await suite.calls[post.operationId]!(keyless, {});
      expect(lastSent().headers.has('idempotency-key')).toBe(false);
      expect(response.status).toBe(422);
      expect(error).toMatchObject({ status: 422 });
      expect(response.headers.get('sl-violations')).toContain('idempotency-key');
    });
  });
}

function expectSentTo(request: Sent, op: SpecOperation): void {
  const template = new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
  expect(request.method).toBe(op.method);
  expect(new URL(request.url).pathname).toMatch(template);
}
