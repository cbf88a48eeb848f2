// Every check the kit records: its name, the stage that records it and the contract rule it enforces. The report takes
// each rule from here, and docs/conformance-checks.md is generated from it (scripts/conformance-guide.mjs).
import type { CheckResult, StageName } from './types.js';

/** One check: `any` stage records it for every request a stage sends; `needsState` marks what a server without state fails. */
export interface CheckInfo {
  stage: StageName | 'any';
  rule: string;
  /** It follows an object from one request to the next, or waits for what a status change sends. */
  needsState?: boolean;
}

export const CHECKS = {
  request_completed: {
    stage: 'any',
    rule: 'The server answers every request within the time-out, with a body of at most 8 MiB (what the clients read).',
  },
  stage_completed: {
    stage: 'any',
    rule: "A stage runs to its end (every stage): it stops early, with this check failed, when the run's deadline (--deadline) passes or when 3 requests in a row get no answer.",
  },
  not_a_server_error: {
    stage: 'any',
    rule: 'No request, valid or not, gets a 5xx: a 500 is a fault, and a generated request must not cause one.',
  },
  status_code_conformance: { stage: 'any', rule: 'Every status is one the operation declares under `responses`.' },
  content_type_conformance: { stage: 'any', rule: 'The Content-Type is a media type declared for that status.' },
  response_headers_conformance: {
    stage: 'any',
    rule: 'The headers declared as required for that status are present and fit their schemas.',
  },
  response_schema_conformance: {
    stage: 'any',
    rule: 'The body fits the schema declared for that status and media type.',
  },
  positive_data_acceptance: {
    stage: 'any',
    rule: 'A request that fits the contract is not refused as malformed (400): it gets a declared 2xx, or a refusal that depends on state or business rules (404, 409, 422, 429).',
  },

  'respect report': { stage: 'flows', rule: 'Redocly Respect runs the workflows and writes its JSON report.' },
  'workflow ran': { stage: 'flows', rule: 'Redocly Respect runs every chosen workflow.' },
  'workflow finished': { stage: 'flows', rule: 'The workflow runs to its end within the time limit.' },

  negative_data_rejection: {
    stage: 'fuzz',
    rule: 'A request that breaks the contract (parameters, headers or body) gets a declared 4xx problem, never a success.',
  },
  ignored_auth: {
    stage: 'fuzz',
    rule: 'A request without credentials gets 401 (security: every operation requires them).',
  },

  retrieve_matches_create: {
    stage: 'invariants',
    needsState: true,
    rule: "A created object is retrievable at once, and the create answer and a retrieve show every field the request sent, as sent, under the variant's names (amount and currency as requested, requisite, metadata returned as sent; expires_at = created_at + expires_in; a card number masked to its last four digits).",
  },
  list_consistent: {
    stage: 'invariants',
    needsState: true,
    rule: 'A list is `{ data, pagination }` where pagination.total counts the whole list; pages read with limit and offset hold each item once, miss none, come newest first, and the objects the kit created are in them.',
  },
  legal_transition: {
    stage: 'invariants',
    needsState: true,
    rule: "Every status change is a row of the contract's lifecycle table (the x-lifecycle of PaymentStatus, PayoutStatus, AppealStatus) with that row's trigger and, where the variant shows it, its reason_code; an operation the table does not allow from the current status changes nothing.",
  },
  refund_within_processed: {
    stage: 'invariants',
    needsState: true,
    rule: "Refund Payment refunds the whole processed amount and never more: refunded.amount ≤ processed.amount, in the payment's currency.",
  },
  balance_adds_up: {
    stage: 'invariants',
    needsState: true,
    rule: 'The balance per currency is what the payments and payouts add up to (BalanceEntry): available = processed − refunded of every payment, less the amount of every payout still holding it (created, pending, processing, succeeded); pending = the requested amount of every payment still created or pending.',
  },
  idempotent_replay: {
    stage: 'invariants',
    needsState: true,
    rule: 'Idempotency-Key: a retry with the same key and the same body replays the first answer (status and body, the same object); the same key with another body gets 422 idempotency_key_reused.',
  },
  sandbox_control: {
    stage: 'invariants',
    rule: "With --sandbox the server has the sandbox's control API (/_sandbox): the clock advances and the event log is read with the same credentials.",
  },

  webhook_signature: {
    stage: 'webhooks',
    rule: "X-Signature holds a v1 HMAC-SHA256 (base64) of `${X-Event-ID}.${X-Timestamp}.${raw body}` (earlier layout: `${X-Event-ID}.${raw body}`) keyed with the endpoint's whsec_ secret, as verifyWebhook checks it.",
  },
  webhook_body_conformance: {
    stage: 'webhooks',
    rule: "The body is JSON that fits the layout's schema: WebhookEvent (later layout, with X-Timestamp) or EarlierWebhookEvent (earlier layout).",
  },
  webhook_headers_conformance: {
    stage: 'webhooks',
    rule: "X-Event-ID equals the body's id and X-Event-Type its type; a later-layout delivery carries X-Timestamp, whole Unix seconds within 300 s of the receiver's clock; Content-Type is application/json.",
  },
  webhook_event_id_stable: {
    stage: 'webhooks',
    needsState: true,
    rule: 'Every attempt to deliver one event carries the same X-Event-ID and body id, so that receivers can de-duplicate on it.',
  },
  webhook_for_status_change: {
    stage: 'webhooks',
    needsState: true,
    rule: 'Every status change is sent as an onStatusChange event whose data is the object in its new status (within --webhook-wait of the API showing it).',
  },
  webhook_endpoint_registered: {
    stage: 'webhooks',
    rule: "With --sandbox, POST /_sandbox/webhook-endpoints registers the kit's listener, so that the sandbox delivers to it.",
  },
} as const satisfies Record<string, CheckInfo>;

export type CheckName = keyof typeof CHECKS;

/** What a flows check is named after: each step of a workflow is a check of its own, with the step's rule. */
export type StepCheck = `step ${string}`;

/**
 * Whether a check can pass only on a server that keeps state: every step of a shipped workflow (each one uses what an
 * earlier step created, or needs the server to know its objects and credentials), the invariants stage's own checks,
 * and the webhooks a status change sends. The checks of single answers (status, media type, headers, schema, 401
 * without credentials, 4xx for a broken request) hold on any server.
 */
export function needsState(check: Pick<CheckResult, 'stage' | 'check'>): boolean {
  if (check.stage === 'flows') return check.check.startsWith('step ');
  const info: CheckInfo | undefined = (CHECKS as Record<string, CheckInfo>)[check.check];
  return info?.needsState === true;
}
