// The webhooks stage: a receiver that listens for the whole run, judges every delivery (signature, body, headers),
// answers the first delivery of a few events with 503 to see their retries keep X-Event-ID, and checks that every
// status change the API showed was sent as an event. With --sandbox it registers the receiver and moves the clock.
import { setTimeout as sleep } from 'node:timers/promises';
import type { SandboxControlClient } from '@merchant-payments/contract/internal/sandbox-control/client.js';
import type { ObjectKind } from '@merchant-payments/contract/internal/sandbox-model/types.js';
import {
  findOperation,
  type OperationSpec,
  type Variant,
} from '@merchant-payments/contract/internal/validation/index.js';
import { secretKey } from '@merchant-payments/contract/internal/webhooks/crypto.js';
import type { WebhookLayout } from '@merchant-payments/contract/internal/webhooks/types.js';
import { kindOf, objectOf, type Answer } from './checks.js';
import { ConformanceUsageError } from './errors.js';
import type { Call } from './exchange.js';
import type { Recorder, Skipper } from './results.js';
import { derefOf, type Schema } from './schemas.js';
import type { ConformanceOptions } from './types.js';
import {
  deliveryEvidence,
  judgeDelivery,
  maskWebhookSecret,
  readDelivery,
  type ReadDelivery,
} from './webhook-checks.js';
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

/** What the stage is given: the webhook options, its requests and records, every status change the run saw. */
export interface WebhooksOptions extends Pick<ConformanceOptions, 'webhookSecret' | 'webhookPort' | 'webhookWaitMs'> {
  variant: Variant;
  call: Call;
  record: Recorder;
  skip: Skipper;
  progress: (subject: string) => void;
  /** The sandbox's control API (--sandbox): the kit registers its endpoint there and moves the clock. */
  control?: SandboxControlClient;
  /** Every status change of an object that the run's answers showed (statusLog). */
  changes: () => StatusChange[];
}

/** A status change an answer showed: an object seen in a status after another, with performance.now() when first seen. */
export interface StatusChange {
  kind: ObjectKind;
  id: string;
  status: string;
  at: number;
}

/** Every status of every object the answers of a run showed, in the order seen, all stages together. */
export function statusLog() {
  const seen = new Map<string, { kind: ObjectKind; id: string; statuses: { status: string; at: number }[] }>();
  return {
    /**
     * Notes the status of the object an answer shows (a create, retrieve or action on one object), only for objects the
     * run created: an object the tenant held before may have changed while no endpoint of the kit's was registered.
     */
    observe(operation: OperationSpec, answer: Answer) {
      const kind = kindOf(operation.path);
      const object = objectOf(answer.json);
      if (answer.status < 200 || answer.status >= 300 || !kind || !object) return;
      const made = operation.operationId.startsWith('create');
      if (!made && !seen.has(`${kind}:${object.id}`)) return;
      const entry = seen.get(`${kind}:${object.id}`) ?? { kind, id: object.id, statuses: [] };
      if (entry.statuses.at(-1)?.status !== object.status)
        entry.statuses.push({ status: object.status, at: performance.now() });
      seen.set(`${kind}:${object.id}`, entry);
    },
    // Note: creation is not counted. The contract sends onStatusChange "when a payment changes status" and its lifecycle
    // tables give the creating row no `from` status ("(new)"), so a new object has changed nothing; an event a server
    // does send at creation is judged like any other delivery.
    changes: (): StatusChange[] =>
      [...seen.values()].flatMap(({ kind, id, statuses }) =>
        statuses.slice(1).map(({ status, at }) => ({ kind, id, status, at })),
      ),
  };
}

const header = (delivery: ReceivedDelivery, name: string) => delivery.headers[name.toLowerCase()];

function secretOf(options: WebhooksOptions): string | undefined {
  const given = options.webhookSecret ?? process.env[WEBHOOK_SECRET_ENV];
  if (given === undefined || given === '') {
    if (options.control) return undefined;
    throw new ConformanceUsageError(
      `the webhooks stage needs the endpoint's signing secret: set ${WEBHOOK_SECRET_ENV} (or the webhookSecret option), or pass --sandbox for the kit to register an endpoint of its own`,
    );
  }
  try {
    secretKey(given);
  } catch (error) {
    // Note: the verifier's message names the problem, never the secret.
    throw new ConformanceUsageError(
      `the webhook secret (${WEBHOOK_SECRET_ENV} or the webhookSecret option) is not usable: ${(error as Error).message}`,
    );
  }
  return given;
}

/** The first example body the contract gives the operation's request. */
function exampleBody(variant: Variant, operation: OperationSpec): unknown {
  const deref = derefOf(variant);
  const node = deref({ $ref: operation.pointer });
  const requestBody = node.requestBody === undefined ? undefined : deref(node.requestBody as Schema);
  const examples = ((requestBody?.content as Record<string, Schema> | undefined)?.['application/json']?.examples ??
    {}) as Record<string, Schema>;
  const first = Object.values(examples)[0];
  return first === undefined ? undefined : deref(first).value;
}

/** Waits until `done` holds or `deadline` (performance.now()) passes. */
async function until(done: () => boolean, deadline: number): Promise<void> {
  while (!done() && performance.now() < deadline) await sleep(POLL_MS);
}

/**
 * Starts the stage's receiver before any stage runs (and, with the control API, registers it), so that it sees what
 * every stage causes; `run` then causes status changes of its own and judges what arrived, `close` stops listening.
 */
export async function openWebhooks(
  options: WebhooksOptions,
): Promise<{ run(): Promise<void>; close(): Promise<void> }> {
  const { control, record, skip, progress } = options;
  const given = secretOf(options);
  const port = options.webhookPort ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConformanceUsageError(`the webhook port must be an integer from 0 to 65535, got ${String(port)}`);
  let secret = given ?? '';
  // Note: registered in the later layout, so that a delivery without X-Timestamp is judged as the defect it is.
  const layout: WebhookLayout | undefined = control ? 'later' : undefined;
  let endpointId: string | undefined;
  const kept: Kept[] = [];
  let overflow = 0;
  /** Per retry key: the first delivery's X-Event-ID and body id, and how many attempts arrived. */
  const attempts = new Map<string, { eventId: string | undefined; bodyId: unknown; count: number }>();
  const provoked = new Set<string>();
  const judging = new Set<Promise<void>>();
  let listener: WebhookListener | undefined;

  /** Judges a delivery as it arrives and says what to answer: 503 for the first attempt of a provoked event, else 200. */
  const receive = (delivery: ReceivedDelivery): number => {
    if (!listener) return 503;
    const url = listener.url;
    const read = readDelivery(delivery, layout);
    let answer = 200;
    if (read.retryKey !== undefined) {
      const seen = attempts.get(read.retryKey);
      if (seen) {
        seen.count += 1;
        const ok = seen.eventId === header(delivery, 'X-Event-ID') && seen.bodyId === read.json?.id;
        const detail = `attempt ${seen.count} of one event (same object, status and created_at) has X-Event-ID ${header(delivery, 'X-Event-ID') ?? '(none)'} and body id ${String(read.json?.id)}; the first had ${seen.eventId ?? '(none)'} and ${String(seen.bodyId)}`;
        record(
          read.subject,
          { check: 'webhook_event_id_stable', ok, ...(ok ? {} : { detail }) },
          deliveryEvidence(delivery, url, answer, secret),
        );
      } else if (attempts.size < MAX_KEPT) {
        attempts.set(read.retryKey, { eventId: header(delivery, 'X-Event-ID'), bodyId: read.json?.id, count: 1 });
        if (provoked.size < PROVOKED_RETRIES) {
          provoked.add(read.retryKey);
          answer = 503;
        }
      }
    }
    if (kept.length < MAX_KEPT)
      kept.push({
        eventId: header(delivery, 'X-Event-ID'),
        bodyId: read.json?.id,
        object: read.object,
        retryKey: read.retryKey,
        at: delivery.at,
      });
    else overflow += 1;
    const judged = judgeDelivery(read, secret).then((outcomes) => {
      const evidence = deliveryEvidence(delivery, url, delivery.body === undefined ? 413 : answer, secret);
      for (const outcome of outcomes)
        record(
          read.subject,
          outcome.detail ? { ...outcome, detail: maskWebhookSecret(outcome.detail, secret) } : outcome,
          evidence,
        );
    });
    judging.add(judged);
    void judged.finally(() => judging.delete(judged));
    return answer;
  };

  try {
    listener = await listenForWebhooks({ port, maxBodyBytes: MAX_BODY_BYTES, receive });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConformanceUsageError(
      `the webhooks stage could not listen on 127.0.0.1:${port} (${code ?? (error as Error).message}); choose another --webhook-port, or 0 for a free one`,
    );
  }
  if (control) {
    const registered = (ok: boolean, detail?: string) =>
      record('endpoint', { check: 'webhook_endpoint_registered', ok, ...(detail ? { detail } : {}) });
    try {
      const { data, response } = await control.POST('/_sandbox/webhook-endpoints', {
        body: { url: `${listener.url}/webhooks`, layout: 'later', ...(given ? { secret: given } : {}) },
      });
      const generated = given ?? data?.data.secret;
      if (!data || !generated)
        registered(
          false,
          `POST /_sandbox/webhook-endpoints answered ${response.status}${data ? ' without the generated secret' : ''}`,
        );
      else {
        endpointId = data.data.id;
        secret = generated;
        registered(true);
      }
    } catch (error) {
      registered(false, `POST /_sandbox/webhook-endpoints failed: ${(error as Error).message}`);
    }
  }

  /** Sends the operation (by id) on the object `id`, with the contract's example body where it takes one. */
  const call = async (operationId: string, id?: string) => {
    const operation = findOperation(options.variant, operationId);
    if (!operation) return undefined;
    const body = operation.requestBody ? exampleBody(options.variant, operation) : undefined;
    progress(operationId);
    const answer = await options.call(operationId, {
      id,
      body: body === undefined ? undefined : structuredClone(body),
    });
    return answer && answer.status >= 200 && answer.status < 300 ? objectOf(answer.json) : undefined;
  };
  const arrived = (change: Omit<StatusChange, 'at'>) =>
    kept.find(
      ({ object }) => object?.kind === change.kind && object.id === change.id && object.status === change.status,
    );
  const retried = () => [...provoked].every((key) => (attempts.get(key)?.count ?? 0) > 1);

  async function run(): Promise<void> {
    if (secret === '') {
      skip(
        'deliveries',
        "the sandbox did not register the kit's endpoint (see webhook_endpoint_registered), so no delivery could be verified",
      );
      return;
    }
    const wait = options.webhookWaitMs ?? DEFAULT_WAIT_MS;
    // Status changes of the stage's own, so that it has something to judge when it runs alone.
    const canceled = await call('createPayment');
    if (canceled) await call('cancelPayment', canceled.id);
    if (control) {
      // Note: a second payment left to the sandbox's processing, so that clock-driven changes are sent too.
      const processed = await call('createPayment');
      await until(() => provoked.size > 0, performance.now() + wait);
      for (let advance = 0; advance < MAX_ADVANCES && !retried(); advance += 1) {
        // Note: a provoked attempt is answered before the sandbox records it; the schedule counts from that record.
        await Promise.all(judging);
        await sleep(POLL_MS * 4);
        progress('advancing the sandbox clock');
        const { response } = await control.POST('/_sandbox/clock/advance', { body: { seconds: ADVANCE_SECONDS } });
        if (!response.ok) {
          skip('retries', `POST /_sandbox/clock/advance answered ${response.status}, so no retry could be made due`);
          break;
        }
      }
      if (processed) await call('retrievePayment', processed.id);
    }

    progress('waiting for events');
    const changes = options.changes();
    const latest = Math.max(performance.now(), ...changes.map((change) => change.at + wait));
    await until(() => changes.every((change) => arrived(change)) && (!control || retried()), latest);
    await Promise.all(judging);

    if (overflow > 0)
      skip(
        'deliveries',
        `${overflow} deliveries arrived after the first ${MAX_KEPT}; status changes were matched against the first ${MAX_KEPT} only`,
      );
    for (const change of changes) {
      const event = arrived(change);
      const inTime = event !== undefined && event.at <= change.at + wait;
      const seen = kept
        .filter(({ object }) => object?.kind === change.kind && object.id === change.id)
        .map(({ object }) => object?.status);
      const detail = event
        ? `the event of ${change.kind} ${change.id} becoming ${change.status} arrived ${Math.round(event.at - change.at)} ms after the API showed it, later than ${wait} ms`
        : `${change.kind} ${change.id} was seen ${change.status} through the API, but no event with that status arrived within ${wait} ms (events of it: ${seen.length > 0 ? [...new Set(seen)].join(', ') : 'none'})`;
      record(`${change.kind}.status_changed`, {
        check: 'webhook_for_status_change',
        ok: inTime,
        ...(inTime ? {} : { detail }),
      });
    }
    if (changes.length === 0)
      skip('status changes', 'no status change was seen through the API, so none could be matched with an event');
    if ([...attempts.values()].every((attempt) => attempt.count <= 1)) {
      const why =
        provoked.size === 0
          ? 'no event arrived whose first delivery could be refused'
          : `the kit answered 503 to the first delivery of ${provoked.size} event(s), but no retry arrived within ${wait} ms${control ? ' and the clock advances' : ' (without --sandbox the server retries on its own schedule, a minute or more later)'}`;
      skip('webhook_event_id_stable', `no event was delivered twice: ${why}`);
    }
  }

  async function close(): Promise<void> {
    await listener?.close();
    await Promise.allSettled(judging);
    if (endpointId && control) {
      await control
        .DELETE('/_sandbox/webhook-endpoints/{endpointId}', { params: { path: { endpointId } } })
        .catch(() => undefined);
    }
  }

  return { run, close };
}
