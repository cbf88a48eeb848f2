// The sandbox core: state, lifecycles, idempotency, events and the outbox's schedule, with no HTTP in it.
export { advance, hasDueWork, runDue, type DeliverNow } from './advance.js';
export { failure, type Answer } from './answer.js';
export { balanceOf } from './balance.js';
export { DEFAULT_START, clockNow, iso, moveClock, type ClockMode, type TenantClock } from './clock.js';
export { execute, KEYED_COMMANDS, namedBy, type Command, type CommandResult, type ResultOf } from './commands.js';
export type { ForceStatusInput } from './control.js';
export { droppedByRetention, EVENT_LOG_LIMIT, eventAt, eventCount } from './event-log.js';
export { EVENT_TYPES } from './events.js';
export {
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_RETENTION_MS,
  beginIdempotent,
  completeIdempotent,
  fingerprint,
  releaseIdempotent,
  renewIdempotent,
} from './idempotency.js';
export {
  creationRow,
  findRow,
  isFinal,
  OBJECT_KINDS,
  rowsFrom,
  statusesOf,
  TRANSITIONS,
  type LifecycleRow,
  type StatusOf,
  type Transition,
} from '@merchant-payments/contract/internal/sandbox-model/lifecycle.js';
export {
  MAGIC_VALUES,
  outcomeFor,
  type MagicValue,
} from '@merchant-payments/contract/internal/sandbox-model/magic-values.js';
export { connectListener, dropExpiredListeners, LISTENER_LEASE_MS, renewListener } from './listeners.js';
export { DEFAULT_LIMIT, type ListQuery } from './objects.js';
export {
  DEFAULT_OUTCOMES,
  OUTCOMES,
  STEP_DELAY_SECONDS,
  pathOf,
  type OutcomeName,
  type Step,
} from '@merchant-payments/contract/internal/sandbox-model/outcomes.js';
export {
  addEndpoint,
  attemptContext,
  awaitsOutcome,
  leaseDue,
  recordAttempt,
  redeliver,
  releaseAttempt,
  removeEndpoint,
  takeDue,
} from './outbox.js';
export { DEFAULT_EXPIRES_IN } from './payments.js';
export type { CoreProblem, ProblemCode } from './problems.js';
export { DEFAULT_RETRY_COMPRESSION, RETRY_SCHEDULE_SECONDS, nextAttemptAt } from './retry-schedule.js';
export {
  collectionOf,
  createHead,
  type DeliverySet,
  type EventLog,
  type Fault,
  type IdempotencyBook,
  type Keyed,
  type ObjectSet,
  type TenantHead,
  type TenantParts,
  type TenantReads,
  type TenantSettings,
  type TenantState,
  type TimerQueue,
} from './tenant.js';
export type { Timer } from './timers.js';
export type {
  AppealRecord,
  Delivery,
  DeliveryAttempt,
  DeliveryOutcome,
  DueAttempt,
  IdempotencyRecord,
  ObjectKind,
  Page,
  PaymentRecord,
  PayoutRecord,
  RecordOf,
  RequestOf,
  StatusChange,
  StatusChangeEvent,
  Trigger,
  WebhookEndpoint,
} from './types.js';
