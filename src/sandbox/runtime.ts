// What the HTTP layer and the control API work with: the store, the credentials, the validators and the modules
// around the core (clock runner, deliveries, state file), behind one object.
import type { Advanced } from './clock-runner.js';
import type { FaultBook } from './control/fault-book.js';
import type { SandboxStore, TenantState } from './core/index.js';
import type { RequestInterceptor, SandboxValidators } from './http/hooks.js';
import type { KeyMemory } from './tenants.js';
import type { Authentication } from './variants/operation.js';

/** The sandbox's parts, as the HTTP layer and the control routes use them. */
export interface SandboxRuntime {
  store: SandboxStore;
  keys: KeyMemory;
  validators: SandboxValidators;
  intercept: RequestInterceptor | undefined;
  /** The largest request body read, in bytes. */
  maxBodyBytes: number;
  /** The tenant, created on first use with the endpoints of the `webhookUrls` option. */
  open(tenant: string): TenantState;
  /** The tenant named by either variant's credentials (bearer token, or key pair); the control API's way in. */
  authenticate(headers: Headers): Authentication;
  /** After a command: sends what fell due (without waiting for receivers) and, when `changed`, saves the state file. */
  settle(tenant: string, changed: boolean): Promise<void>;
  /** Moves a tenant's clock forward, running and delivering what falls due, in order. */
  advance(tenant: string, seconds: number): Promise<Advanced>;
  /** Sends the attempts due on a tenant now (after a redelivery, say). */
  deliver(tenant: string): Promise<void>;
  /** The faults waiting per tenant (the control API's), which the default interceptor applies. */
  faults: FaultBook;
  /** Forgets a tenant: its state, its faults and its remembered secret key. */
  reset(tenant: string): Promise<void>;
  /** Told about failures of the sandbox itself (a request that threw, a save that failed). */
  onError(error: unknown): void;
  /** Saves the state file (a no-op without one). */
  save(): Promise<void>;
}
