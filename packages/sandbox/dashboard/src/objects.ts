// Payments, payouts and appeals through the signed-in variant's own client: the same operations under each variant's
// paths, so the pages above need not know which variant the tenant uses.
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import type { Clients } from './session.js';

/** A kind's name in paths and in the page's addresses. */
export const PLURAL: Record<ObjectKind, 'payments' | 'payouts' | 'appeals'> = {
  payment: 'payments',
  payout: 'payouts',
  appeal: 'appeals',
};

/** One object as the API shows it: its own fields, of which the page reads a few by name. */
export type ObjectFields = { id: string; status: string; created_at?: string } & Record<string, unknown>;

/** What a call answered: the data, or the error body the client gave (a problem, mostly). */
export type Answer<T> = { ok: true; data: T } | { ok: false; error: unknown };

/** One page of a list. */
export interface Page {
  data: ObjectFields[];
  pagination: { total: number; limit: number; offset: number };
}

/** Which page of a list to read. */
export interface ListQuery {
  status?: string;
  limit: number;
  offset: number;
}

// Note: the variants' paths differ and each client types its own; the query and the answers' shapes are the same in
// both, which the contract's parity tests hold, so each call is written once per variant and read as one shape.
type Call = (path: string, init: object) => Promise<{ data?: unknown; error?: unknown }>;

function caller(clients: Clients): { get: Call; prefix: string } {
  const get = clients.merchant.GET as unknown as Call;
  return { get, prefix: clients.variant === 'A' ? '' : '/merchant/v1' };
}

const idParameter = (clients: Clients, kind: ObjectKind) => (clients.variant === 'A' ? 'id' : `${kind}Id`);

/** Lists a kind, newest first. */
export async function listObjects(clients: Clients, kind: ObjectKind, query: ListQuery): Promise<Answer<Page>> {
  const { get, prefix } = caller(clients);
  const { status, limit, offset } = query;
  const { data, error } = await get(`${prefix}/${PLURAL[kind]}`, {
    params: { query: { limit, offset, ...(status ? { status } : {}) } },
  });
  return error === undefined ? { ok: true, data: data as Page } : { ok: false, error };
}

/** Reads one object. */
export async function retrieveObject(clients: Clients, kind: ObjectKind, id: string): Promise<Answer<ObjectFields>> {
  const { get, prefix } = caller(clients);
  const { data, error } = await get(`${prefix}/${PLURAL[kind]}/{${idParameter(clients, kind)}}`, {
    params: { path: { [idParameter(clients, kind)]: id } },
  });
  return error === undefined ? { ok: true, data: (data as { data: ObjectFields }).data } : { ok: false, error };
}
