import { afterEach, describe, expect, it } from 'vitest';
import { ProblemError, paginate, type VariantB } from '../../packages/contract/src/index.js';
import { testClientA, testClientB } from './harness.js';
import { problemReply, startScriptedServer, type ReceivedRequest, type Reply, type ScriptedServer } from './server.js';

// A list endpoint over `total` payouts that honours limit and offset, at most `cap` items a page.
function listOf(total: number, cap = 100) {
  const items = Array.from({ length: total }, (_, i) => ({ id: `po_${String(i).padStart(3, '0')}` }));
  return (request: ReceivedRequest): Reply => {
    const query = new URL(request.url, 'http://localhost').searchParams;
    const limit = Math.min(Number(query.get('limit') ?? 20), cap);
    const offset = Number(query.get('offset') ?? 0);
    return { status: 200, body: { data: items.slice(offset, offset + limit), pagination: { total, limit, offset } } };
  };
}

const queries = (server: ScriptedServer) => server.requests.map((r) => new URL(r.url, 'http://localhost').search);

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('paginate', () => {
  let server: ScriptedServer;
  afterEach(() => server.close());

  it('walks limit/offset page by page and stops at total', async () => {
    server = await startScriptedServer(listOf(7));
    const client = testClientB(server.url);
    const payouts: VariantB.Payout[] = await collect(
      paginate(client, '/merchant/v1/payouts', { params: { query: { limit: 3, status: 'pending' } } }),
    );
    expect(payouts.map((p) => p.id)).toEqual(['po_000', 'po_001', 'po_002', 'po_003', 'po_004', 'po_005', 'po_006']);
    expect(queries(server)).toEqual([
      '?limit=3&status=pending&offset=0',
      '?limit=3&status=pending&offset=3',
      '?limit=3&status=pending&offset=6',
    ]);
  });

  it('starts at the offset given and walks a server that caps the page size', async () => {
    server = await startScriptedServer(listOf(10, 4));
    const items = await collect(
      paginate(testClientA(server.url), '/payouts', { params: { query: { limit: 50, offset: 2 } } }),
    );
    expect(items).toHaveLength(8);
    expect(queries(server)).toEqual(['?limit=50&offset=2', '?limit=50&offset=6']);
  });

  it('fetches nothing more once the caller stops iterating', async () => {
    server = await startScriptedServer(listOf(100));
    for await (const payout of paginate(testClientA(server.url), '/payouts', { params: { query: { limit: 10 } } })) {
      if (payout.id === 'po_012') break;
    }
    expect(server.requests).toHaveLength(2);
  });

  it('ends on an empty page even if total promises more', async () => {
    server = await startScriptedServer({
      status: 200,
      body: { data: [], pagination: { total: 5, limit: 20, offset: 0 } },
    });
    expect(await collect(paginate(testClientA(server.url), '/appeals'))).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('throws a ProblemError carrying the Problem when a page fails', async () => {
    server = await startScriptedServer(listOf(30));
    server.reply(listOf(30), problemReply(404, 'not_found'));
    const failure = await collect(
      paginate(testClientA(server.url), '/payments', { params: { query: { limit: 20 } } }),
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProblemError);
    const error = failure as ProblemError;
    expect(error.status).toBe(404);
    expect(error.problem).toMatchObject({ status: 404, code: 'not_found' });
    expect(error.message).toBe('GET /payments at offset 20 answered 404 not_found: not_found (test).');
  });
});
