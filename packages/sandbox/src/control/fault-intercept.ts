// Fault injection at the door of the contract's operations: a request that a fault takes answers 429 rate_limited
// with Retry-After, 500 internal_error, or nothing until the client gives up, before its key or body is looked at.
import { checkedResponse } from '../http/checked-response.js';
import type { RequestInterceptor, SandboxValidators } from '../http/hooks.js';
import { httpProblem, occurrence, problemBody } from '../http/problem.js';
import type { TenantStore } from '../stores/types.js';
import { takeFault } from './fault-book.js';

/** How long a `timeout` fault holds a request whose client never gives up, by default: a minute. */
export const DEFAULT_FAULT_HOLD_MS = 60_000;

/** What the interceptor needs: the faults, the response check, and the most a request is held. */
export interface FaultInterceptorSettings {
  /** The store whose tenants hold the faults. */
  store: TenantStore;
  validators: SandboxValidators;
  holdMs: number;
}

/** The interceptor, and `release()`, which ends every hold at once (close()). */
export function createFaultInterceptor(settings: FaultInterceptorSettings): {
  intercept: RequestInterceptor;
  release(): void;
} {
  const holds = new Set<() => void>();
  const intercept: RequestInterceptor = async ({ operation, tenant, request, session, idle }) => {
    // Note: a tenant without faults reads its head and writes nothing.
    const fault = await settings.store.transaction(tenant, (state) => takeFault(state, operation.operationId), session);
    if (!fault) return undefined;
    const where = occurrence(new URL(request.url).pathname);
    const judge = (status: number, headers: Headers, body: unknown) =>
      settings.validators.response?.({ operation, status, headers, body });
    const answer = (status: number, body: unknown, headers?: Record<string, string>) =>
      checkedResponse(judge, operation.operationId, where, status, body, headers);
    if (fault.kind === 'rate_limit') {
      const retryAfter = String(fault.retry_after ?? 1);
      const detail = `A rate_limit fault (${fault.id}) refused this request; retry after ${retryAfter} s (Retry-After).`;
      return answer(429, problemBody(httpProblem('rate_limited', detail), where), { 'retry-after': retryAfter });
    }
    if (fault.kind === 'timeout') {
      idle?.();
      await hold(request.signal, settings.holdMs, holds);
      const detail = `A timeout fault (${fault.id}) held this request for up to ${settings.holdMs} ms without an answer.`;
      return answer(500, problemBody(httpProblem('internal_error', detail), where));
    }
    const detail = `A server_error fault (${fault.id}) failed this request before it reached the tenant's state; it is safe to retry.`;
    return answer(500, problemBody(httpProblem('internal_error', detail), where));
  };
  return {
    intercept,
    release() {
      for (const end of [...holds]) end();
    },
  };
}

/** Resolves when the client aborts, after `ms`, or on release; the timer does not keep the process alive. */
function hold(signal: AbortSignal, ms: number, holds: Set<() => void>): Promise<void> {
  return new Promise((resolve) => {
    const end = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', end);
      holds.delete(end);
      resolve();
    };
    const timer = setTimeout(end, ms);
    timer.unref();
    holds.add(end);
    if (signal.aborted) end();
    else signal.addEventListener('abort', end);
  });
}
