// What reaching a status does to an object's other fields, beside status, reason_code and updated_at.
import type { AnyRecord, AppealRecord, ObjectKind, PaymentRecord, PayoutRecord } from './types.js';

type Effect<R> = (record: R) => void;

// Note: keyed by the status reached, whatever led there, so that an API call, the clock and a forced
// transition leave the same fields behind.
const EFFECTS: {
  payment: Record<string, Effect<PaymentRecord>>;
  payout: Record<string, Effect<PayoutRecord>>;
  appeal: Record<string, Effect<AppealRecord>>;
} = {
  payment: {
    succeeded: (p) => void (p.processed = { ...p.requested }),
    refunded: (p) => void (p.refunded = { ...p.processed }),
  },
  payout: {
    succeeded: (p) => void (p.processed = { ...p.requested }),
  },
  appeal: {
    // Note: `resolved` holds the amount granted (AppealStatus); the sandbox grants the whole amount asked for.
    accepted: (a) => void (a.resolved = { ...a.requested }),
  },
};

/** Applies the effect of reaching the record's current status, if it has one. */
export function applyEffects(kind: ObjectKind, record: AnyRecord): void {
  (EFFECTS[kind][record.status] as Effect<AnyRecord> | undefined)?.(record);
}
