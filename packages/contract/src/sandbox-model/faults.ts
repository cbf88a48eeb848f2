// The faults the sandbox's control API makes (POST /_sandbox/faults): which operations one may fail and how, as the
// control API's document names them; the sandbox checks requests against these and the dashboard offers them.
import type { FaultKind, FaultOperationId } from '../../generated/types/sandbox.js';

/** The operations a fault may fail (FaultOperationId): every operation of the main API, as both variants name them. */
export const FAULT_OPERATIONS = [
  'listPayments',
  'createPayment',
  'retrievePayment',
  'confirmPayment',
  'cancelPayment',
  'refundPayment',
  'listPayouts',
  'createPayout',
  'retrievePayout',
  'cancelPayout',
  'listAppeals',
  'createAppeal',
  'retrieveAppeal',
  'cancelAppeal',
  'retrieveBalance',
] as const satisfies readonly FaultOperationId[];

/** How a faulted request fails (FaultKind). */
export const FAULT_KINDS = ['rate_limit', 'server_error', 'timeout'] as const satisfies readonly FaultKind[];
