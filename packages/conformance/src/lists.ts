// What the invariants stage checks after each command sequence, over the whole tenant: every list read page by page is
// consistent and holds the objects the kit created, and the balance is what the listed payments and payouts add up to.
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import { amountOf, expectedBalance, units } from './balance.js';
import { at, dataOf, describe, isObject, ok, OPERATIONS, type Json, type Kit } from './kit.js';

/** The largest list read whole: the balance and completeness checks need every object, so a bigger tenant is skipped. */
const MAX_PAGES = 50;

/** Reads a whole list page by page and checks the pages against each other; the items, or undefined when too long to read. */
async function list(
  kit: Kit,
  kind: ObjectKind,
  skip: (subject: string, reason: string) => void,
): Promise<Json[] | undefined> {
  const operationId = OPERATIONS.list[kind];
  const first = await kit.call(operationId, {
    query: [
      ['limit', '1'],
      ['offset', '0'],
    ],
  });
  const total = at(first?.json, 'pagination.total');
  if (!ok(first) || typeof total !== 'number') {
    kit.check(
      operationId,
      'list_consistent',
      false,
      `List ${kind}s answered ${describe(first)}${ok(first) ? ' without pagination.total' : ''}`,
      first?.evidence,
    );
    return undefined;
  }
  // Note: about three pages, so that a list of a few items still has page boundaries to get wrong.
  const limit = Math.min(100, Math.max(1, Math.ceil(total / 3)));
  const problems: string[] = [];
  const items: Json[] = [];
  const pageOf = new Map<string, number>();
  let evidence = first.evidence;
  let offset = 0;
  for (let page = 0; page <= Math.ceil(total / limit); page += 1, offset += limit) {
    if (page === MAX_PAGES) {
      skip(
        operationId,
        `the list holds ${total} ${kind}s; only the first ${MAX_PAGES * limit} were read, so completeness and the balance were not checked`,
      );
      return undefined;
    }
    const answer = await kit.call(operationId, {
      query: [
        ['limit', String(limit)],
        ['offset', String(offset)],
      ],
    });
    const data = answer && isObject(answer.json) ? answer.json.data : undefined;
    if (!ok(answer) || !Array.isArray(data)) {
      problems.push(`the page at offset ${offset} answered ${describe(answer)}`);
      break;
    }
    evidence = answer.evidence;
    const pagination = at(answer.json, 'pagination');
    if (at(pagination, 'total') !== total)
      problems.push(
        `pagination.total changed from ${total} to ${JSON.stringify(at(pagination, 'total'))} at offset ${offset}`,
      );
    if (at(pagination, 'limit') !== limit || at(pagination, 'offset') !== offset)
      problems.push(
        `the page asked with limit ${limit} and offset ${offset} says limit ${JSON.stringify(at(pagination, 'limit'))} and offset ${JSON.stringify(at(pagination, 'offset'))}`,
      );
    const expected = Math.max(0, Math.min(limit, total - offset));
    if (data.length !== expected)
      problems.push(
        `the page at offset ${offset} holds ${data.length} item${data.length === 1 ? '' : 's'} where pagination.total ${total} and limit ${limit} call for ${expected}`,
      );
    for (const item of data.filter(isObject)) {
      const id = String(item.id);
      const previous = pageOf.get(id);
      if (previous !== undefined) problems.push(`${kind} ${id} is on the pages at offset ${previous} and ${offset}`);
      else pageOf.set(id, offset);
      const last = items.at(-1);
      if (last && Date.parse(String(item.created_at)) > Date.parse(String(last.created_at)))
        problems.push(
          `${kind} ${id} (created ${String(item.created_at)}) comes after a newer one (created ${String(last.created_at)})`,
        );
      items.push(item);
    }
  }
  if (pageOf.size !== total) problems.push(`pagination.total is ${total}, but the pages hold ${pageOf.size} ${kind}s`);
  const missing = kit.created.filter((object) => object.kind === kind && !pageOf.has(object.id));
  if (problems.length === 0 && missing.length > 0)
    problems.push(`created but not in the list: ${missing.map((object) => object.id).join(', ')}`);
  kit.check(
    operationId,
    'list_consistent',
    problems.length === 0,
    `List ${kind}s: ${problems.slice(0, 4).join('; ')}`,
    evidence,
  );
  return items;
}

/** Lists payments, payouts and appeals, then checks the balance against what the payments and payouts add up to. */
export async function listsAndBalance(kit: Kit, skip: (subject: string, reason: string) => void): Promise<void> {
  const payments = await list(kit, 'payment', skip);
  for (const item of payments ?? []) {
    const object = kit.created.find((candidate) => candidate.id === item.id);
    if (object) kit.refundWithin(object, item, undefined);
  }
  const payouts = await list(kit, 'payout', skip);
  await list(kit, 'appeal', skip);
  if (!payments || !payouts) {
    skip(
      'retrieveBalance',
      'the payments and payouts could not all be listed, so the balance they add up to is unknown',
    );
    return;
  }
  const answer = await kit.call('retrieveBalance');
  const balances = at(dataOf(answer), 'balances');
  if (!ok(answer) || !Array.isArray(balances)) {
    kit.check(
      'retrieveBalance',
      'balance_adds_up',
      false,
      `Retrieve Balance answered ${describe(answer)}`,
      answer?.evidence,
    );
    return;
  }
  const { balance, unreadable } = expectedBalance(payments, payouts);
  const reported = new Map(balances.filter(isObject).map((entry) => [String(entry.currency), entry]));
  const problems = unreadable.map((text) => `an object's ${text}`);
  for (const currency of new Set([...balance.keys(), ...reported.keys()])) {
    const want = balance.get(currency) ?? { available: 0n, pending: 0n };
    const got = reported.get(currency);
    for (const field of ['available', 'pending'] as const) {
      const value = got ? units(String(got[field]).replace(/^-/, '')) : 0n;
      const signed = got && String(got[field]).startsWith('-') && value !== undefined ? -value : value;
      if (signed !== want[field])
        problems.push(
          `${currency} ${field} is ${got ? JSON.stringify(got[field]) : '(no entry)'}, the listed payments and payouts add up to ${amountOf(want[field])}`,
        );
    }
  }
  kit.check('retrieveBalance', 'balance_adds_up', problems.length === 0, problems.join('; '), answer.evidence);
}
