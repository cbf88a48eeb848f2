// The seams where the contract's validators plug in: one check per request before it runs, one per response and one
// per webhook body before they leave. Each may be synchronous or return a promise; undefined means "nothing wrong".
import type { FieldError } from '@merchant-payments/contract/internal/shared/problem.js';
import type { StoreSession } from '../stores/types.js';

/** Which of the contract's operations a request is: its variant, operationId and path template (as in the spec). */
export interface OperationRef {
  variant: 'A' | 'B';
  operationId: string;
  method: 'GET' | 'POST';
  /** The spec's path template, e.g. `/merchant/v1/payments/{paymentId}`. */
  path: string;
}

/** What a request check is given: the parts of the request the contract constrains. */
export interface RequestCheck {
  operation: OperationRef;
  pathParams: Record<string, string>;
  query: URLSearchParams;
  headers: Headers;
  /** The parsed JSON body; undefined when the request had none. */
  body: unknown;
}

/** A request the contract rejects: 400 (malformed) or 422 (well-formed but invalid), with every violation. */
export interface RequestRejection {
  status: 400 | 422;
  /** Default `bad_request` for 400, `validation_failed` for 422. */
  code?: string;
  detail: string;
  errors: FieldError[];
}

/** What a response check is given, before the response is sent. */
export interface ResponseCheck {
  operation: OperationRef;
  status: number;
  headers: Headers;
  body: unknown;
}

/** What a webhook check is given, before the delivery is signed and sent. */
export interface WebhookCheck {
  layout: 'later' | 'earlier';
  headers: Record<string, string>;
  body: unknown;
}

/** The validators the HTTP layer and the outbox call; each one absent is skipped. */
export interface SandboxValidators {
  /** Checks a request before it runs; a rejection is answered as a problem and the request does not run. */
  request?(check: RequestCheck): RequestRejection | undefined | Promise<RequestRejection | undefined>;
  /** Checks a response; violations turn it into a 500 problem that names them. */
  response?(check: ResponseCheck): FieldError[] | undefined | Promise<FieldError[] | undefined>;
  /** Checks a webhook body; violations stop the attempt, which is logged as failed with them. */
  webhook?(check: WebhookCheck): FieldError[] | undefined | Promise<FieldError[] | undefined>;
}

/**
 * Runs after authentication and before anything else (the control API's fault injection): a Response answers the
 * request in place of the operation; undefined lets it run.
 */
export type RequestInterceptor = (context: {
  operation: OperationRef;
  tenant: string;
  request: Request;
  /** The request's store session, for a transaction the interceptor takes on the tenant. */
  session?: StoreSession;
  /** Tells the merchant's budget that the request does no more store work while the interceptor holds it. */
  idle?: (() => void) | undefined;
}) => Response | undefined | Promise<Response | undefined>;
