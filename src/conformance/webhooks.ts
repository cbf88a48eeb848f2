// The webhooks stage: a receiver that listens for the whole run, judges every delivery (signature, body, headers),
// answers the first delivery of a few events with 503 to see their retries keep X-Event-ID, and checks that every
// status change the API showed was sent as an event. With --sandbox it registers the receiver and moves the clock.
import { setTimeout as sleep } from 'node:timers/promises';
import { findOperation, type OperationSpec } from '../validation/index.js';
import { secretKey } from '../webhooks/crypto.js';
import type { WebhookLayout } from '../webhooks/types.js';
import { ConformanceUsageError } from './errors.js';
import { derefOf, type Schema } from './schemas.js';
import { objectOf, type Session, type Stage } from './session.js';
import { deliveryEvidence, judgeDelivery, maskWebhookSecret, readDelivery, WEBHOOK_RULES, type ReadDelivery } from './webhook-checks.js';
import { listenForWebhooks, type ReceivedDelivery, type WebhookListener } from './webhook-listener.js';

/** The environment variable the endpoint's signing secret comes from. */
export const WEBHOOK_SECRET_ENV = 'WEBHOOK_SECRET';
const DEFAULT_PORT = 4030;
const DEFAULT_WAIT_MS = 10_000;
const MAX_BODY_BYTES = 256 * 1024;
/** Deliveries kept to match with status changes and retries; a run past it says so instead of judging on a part. */
const MAX_KEPT = 2000;
/** Events whose first delivery is answered 503 on purpose, to see a retry. */
const PROVOKED_RETRIES = 2;
/** How far each advance of a sandbox's clock moves it: the contract's schedule retries a minute after the first attempt. */
const ADVANCE_SECONDS = 60;
const MAX_ADVANCES = 5;
const POLL_MS = 25;

/** What the stage keeps of one delivery once read. */
interface Kept {
  eventId: string | undefined;
  bodyId: unknown;
  object?: ReadDelivery['object'];
  retryKey?: string;
  at: number;
}

interface State {
  listener: WebhookListener;
  secret: string;
  layout: WebhookLayout | undefined;
  endpointId?: string;
  kept: Kept[];
  overflow: number;
  /** Per retry key: the first delivery's X-Event-ID and body id, and how many attempts arrived. */
  attempts: Map<string, { eventId: string | undefined; bodyId: unknown; count: number }>;
  provoked: Set<string>;
  judging: Set<Promise<void>>;
}

const states = new WeakMap<Session, State>();

const header = (delivery: ReceivedDelivery, name: string) => delivery.headers[name.toLowerCase()];

/** Judges a delivery as it arrives and says what to answer: 503 for the first attempt of a provoked event, else 200. */
function receiver(session: Session, state: () => State | undefined) {
  return (delivery: ReceivedDelivery): number => {
    const current = state();
    if (!current) return 503;
    const read = readDelivery(delivery, current.layout);
    let answer = 200;
    if (read.retryKey !== undefined) {
      const seen = current.attempts.get(read.retryKey);
      if (seen) {
        seen.count += 1;
        const ok = seen.eventId === header(delivery, 'X-Event-ID') && seen.bodyId === read.json?.id;
        const detail = `attempt ${seen.count} of one event (same object, status and created_at) has X-Event-ID ${header(delivery, 'X-Event-ID') ?? '(none)'} and body id ${String(read.json?.id)}; the first had ${seen.eventId ?? '(none)'} and ${String(seen.bodyId)}`;
        session.record('webhooks', read.subject, { check: 'webhook_event_id_stable', ok, rule: WEBHOOK_RULES.webhook_event_id_stable, ...(ok ? {} : { detail }) }, deliveryEvidence(delivery, current.listener.url, answer, current.secret));
      } else if (current.attempts.size < MAX_KEPT) {
        current.attempts.set(read.retryKey, { eventId: header(delivery, 'X-Event-ID'), bodyId: read.json?.id, count: 1 });
        if (current.provoked.size < PROVOKED_RETRIES) {
          current.provoked.add(read.retryKey);
          answer = 503;
        }
      }
    }
    if (current.kept.length < MAX_KEPT) current.kept.push({ eventId: header(delivery, 'X-Event-ID'), bodyId: read.json?.id, object: read.object, retryKey: read.retryKey, at: delivery.at });
    else current.overflow += 1;
    const judging = judgeDelivery(read, current.secret).then((outcomes) => {
      const evidence = deliveryEvidence(delivery, current.listener.url, delivery.body === undefined ? 413 : answer, current.secret);
      for (const outcome of outcomes) session.record('webhooks', read.subject, outcome.detail ? { ...outcome, detail: maskWebhookSecret(outcome.detail, current.secret) } : outcome, evidence);
    });
    current.judging.add(judging);
    void judging.finally(() => current.judging.delete(judging));
    return answer;
  };
}

function secretOf(session: Session): string | undefined {
  const given = session.options.webhookSecret ?? process.env[WEBHOOK_SECRET_ENV];
  if (given === undefined || given === '') {
    if (session.options.sandbox) return undefined;
    throw new ConformanceUsageError(`the webhooks stage needs the endpoint's signing secret: set ${WEBHOOK_SECRET_ENV} (or the webhookSecret option), or pass --sandbox for the kit to register an endpoint of its own`);
  }
  try {
    secretKey(given);
  } catch (error) {
    // Note: the verifier's message names the problem, never the secret.
    throw new ConformanceUsageError(`the webhook secret (${WEBHOOK_SECRET_ENV} or the webhookSecret option) is not usable: ${(error as Error).message}`);
  }
  return given;
}

async function prepare(session: Session): Promise<void> {
  const given = secretOf(session);
  const port = session.options.webhookPort ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConformanceUsageError(`the webhook port must be an integer from 0 to 65535, got ${String(port)}`);
  let state: State | undefined;
  let listener: WebhookListener;
  try {
    listener = await listenForWebhooks({ port, maxBodyBytes: MAX_BODY_BYTES, receive: receiver(session, () => state) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConformanceUsageError(`the webhooks stage could not listen on 127.0.0.1:${port} (${code ?? (error as Error).message}); choose another --webhook-port, or 0 for a free one`);
  }
  state = { listener, secret: given ?? '', layout: undefined, kept: [], overflow: 0, attempts: new Map(), provoked: new Set(), judging: new Set() };
  states.set(session, state);
  if (!session.control) return;
  // Note: registered in the later layout, so that a delivery without X-Timestamp is judged as the defect it is.
  state.layout = 'later';
  const check = 'webhook_endpoint_registered';
  try {
    const { data, response } = await session.control.POST('/_sandbox/webhook-endpoints', { body: { url: `${listener.url}/webhooks`, layout: 'later', ...(given ? { secret: given } : {}) } });
    const secret = given ?? data?.data.secret;
    if (!data || !secret) {
      session.record('webhooks', 'endpoint', { check, ok: false, rule: WEBHOOK_RULES[check], detail: `POST /_sandbox/webhook-endpoints answered ${response.status}${data ? ' without the generated secret' : ''}` });
      return;
    }
    state.endpointId = data.data.id;
    state.secret = secret;
    session.record('webhooks', 'endpoint', { check, ok: true, rule: WEBHOOK_RULES[check] });
  } catch (error) {
    session.record('webhooks', 'endpoint', { check, ok: false, rule: WEBHOOK_RULES[check], detail: `POST /_sandbox/webhook-endpoints failed: ${(error as Error).message}` });
  }
}

/** The first example body the contract gives the operation's request. */
function exampleBody(session: Session, operation: OperationSpec): unknown {
  const deref = derefOf(session.variant);
  const node = deref({ $ref: operation.pointer });
  const requestBody = node.requestBody === undefined ? undefined : deref(node.requestBody as Schema);
  const examples = ((requestBody?.content as Record<string, Schema> | undefined)?.['application/json']?.examples ?? {}) as Record<string, Schema>;
  const first = Object.values(examples)[0];
  return first === undefined ? undefined : deref(first).value;
}

/** Sends the operation (by id) on the object `id`, with the contract's example body where it takes one. */
async function call(session: Session, operationId: string, id?: string) {
  const operation = findOperation(session.variant, operationId);
  if (!operation) return undefined;
  const body = operation.requestBody ? exampleBody(session, operation) : undefined;
  session.progress('webhooks', operationId);
  const answer = await session.call('webhooks', operationId, { id, body: body === undefined ? undefined : structuredClone(body) });
  return answer && answer.status >= 200 && answer.status < 300 ? objectOf(answer.json) : undefined;
}

/** Waits until `done` holds or `deadline` (performance.now()) passes. */
async function until(done: () => boolean, deadline: number): Promise<void> {
  while (!done() && performance.now() < deadline) await sleep(POLL_MS);
}

const arrived = (state: State, kind: string, id: string, status: string) => state.kept.find((kept) => kept.object?.kind === kind && kept.object.id === id && kept.object.status === status);

/** Status changes seen through the API: every status of an object after the first one seen. */
function changesOf(session: Session) {
  // Note: creation is not counted. The contract sends onStatusChange "when a payment changes status" and its lifecycle
  // tables give the creating row no `from` status ("(new)"), so a new object has changed nothing; an event a server
  // does send at creation is judged like any other delivery.
  return [...session.statuses.values()].flatMap((entry) => entry.seen.slice(1).map((seen) => ({ kind: entry.kind, id: entry.id, status: seen.status, at: seen.at })));
}

async function run(session: Session): Promise<void> {
  const state = states.get(session);
  if (!state) return;
  if (state.secret === '') {
    session.skip('webhooks', 'deliveries', 'the sandbox did not register the kit\'s endpoint (see webhook_endpoint_registered), so no delivery could be verified');
    return;
  }
  const wait = session.options.webhookWaitMs ?? DEFAULT_WAIT_MS;
  // Status changes of the stage's own, so that it has something to judge when it runs alone.
  const canceled = await call(session, 'createPayment');
  if (canceled) await call(session, 'cancelPayment', canceled.id);
  if (session.control) {
    // Note: a second payment left to the sandbox's processing, so that clock-driven changes are sent too.
    const processed = await call(session, 'createPayment');
    await until(() => state.provoked.size > 0, performance.now() + wait);
    for (let advance = 0; advance < MAX_ADVANCES && ![...state.provoked].every((key) => (state.attempts.get(key)?.count ?? 0) > 1); advance += 1) {
      // Note: a provoked attempt is answered before the sandbox records it; the schedule counts from that record.
      await Promise.all(state.judging);
      await sleep(POLL_MS * 4);
      session.progress('webhooks', 'advancing the sandbox clock');
      const { response } = await session.control.POST('/_sandbox/clock/advance', { body: { seconds: ADVANCE_SECONDS } });
      if (!response.ok) {
        session.skip('webhooks', 'retries', `POST /_sandbox/clock/advance answered ${response.status}, so no retry could be made due`);
        break;
      }
    }
    if (processed) await call(session, 'retrievePayment', processed.id);
  }

  session.progress('webhooks', 'waiting for events');
  const changes = changesOf(session);
  const latest = Math.max(performance.now(), ...changes.map((change) => change.at + wait));
  const retried = () => [...state.provoked].every((key) => (state.attempts.get(key)?.count ?? 0) > 1);
  await until(() => changes.every((change) => arrived(state, change.kind, change.id, change.status)) && (!session.control || retried()), latest);
  await Promise.all(state.judging);

  if (state.overflow > 0) session.skip('webhooks', 'deliveries', `${state.overflow} deliveries arrived after the first ${MAX_KEPT}; status changes were matched against the first ${MAX_KEPT} only`);
  for (const change of changes) {
    const event = arrived(state, change.kind, change.id, change.status);
    const inTime = event !== undefined && event.at <= change.at + wait;
    const seen = state.kept.filter((kept) => kept.object?.kind === change.kind && kept.object.id === change.id).map((kept) => kept.object?.status);
    const detail = event
      ? `the event of ${change.kind} ${change.id} becoming ${change.status} arrived ${Math.round(event.at - change.at)} ms after the API showed it, later than ${wait} ms`
      : `${change.kind} ${change.id} was seen ${change.status} through the API, but no event with that status arrived within ${wait} ms (events of it: ${seen.length > 0 ? [...new Set(seen)].join(', ') : 'none'})`;
    session.record('webhooks', `${change.kind}.status_changed`, { check: 'webhook_for_status_change', ok: inTime, rule: WEBHOOK_RULES.webhook_for_status_change, ...(inTime ? {} : { detail }) });
  }
  if (changes.length === 0) session.skip('webhooks', 'status changes', 'no status change was seen through the API, so none could be matched with an event');
  const retries = [...state.attempts.values()].filter((attempt) => attempt.count > 1).length;
  if (retries === 0) {
    const why = state.provoked.size === 0
      ? 'no event arrived whose first delivery could be refused'
      : `the kit answered 503 to the first delivery of ${state.provoked.size} event(s), but no retry arrived within ${wait} ms${session.control ? ' and the clock advances' : ' (without --sandbox the server retries on its own schedule, a minute or more later)'}`;
    session.skip('webhooks', 'webhook_event_id_stable', `no event was delivered twice: ${why}`);
  }
}

async function dispose(session: Session): Promise<void> {
  const state = states.get(session);
  if (!state) return;
  states.delete(session);
  await state.listener.close();
  await Promise.allSettled(state.judging);
  if (state.endpointId && session.control) {
    await session.control.DELETE('/_sandbox/webhook-endpoints/{endpointId}', { params: { path: { endpointId: state.endpointId } } }).catch(() => undefined);
  }
}

export const webhooksStage: Stage = { prepare, run, dispose };
