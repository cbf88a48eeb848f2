// The sandbox package's entry: a stateful sandbox of both variants, in-process or over HTTP, and the typed client of its
// control API (/_sandbox) with its named types.
export {
  createSandbox,
  openSandbox,
  SHUTDOWN_GRACE_MS,
  type ListenOptions,
  type CloseReport,
  type Sandbox,
  type SandboxTenant,
} from './create-sandbox.js';
export { createSandboxLogger, READY_TIMEOUT_MS, SIGNAL_PATHS } from './http/signals.js';
export type { OpenTenants, SandboxOptions, SandboxStoreChoice, TestTenantLimits } from './options.js';
export type {
  OperationRef,
  RequestCheck,
  RequestInterceptor,
  RequestRejection,
  ResponseCheck,
  SandboxValidators,
  WebhookCheck,
} from './http/hooks.js';
export { CONTROL_PREFIX, type ControlRoutes } from './http/control.js';
export { contractValidators } from './http/contract-validators.js';
export type { SandboxRuntime } from './runtime.js';
export type { PoolStats, TenantStore, TenantStoreSettings } from './stores/types.js';
export { ClockAdvanceError } from './clock/advance-error.js';
export { TenantLimitError } from './stores/tenant-limit-error.js';
export {
  createSandboxControlClient,
  type SandboxBearerCredentials,
  type SandboxControlClient,
  type SandboxControlClientOptions,
  type SandboxControlPaths,
  type SandboxKeyPairCredentials,
} from '@merchant-payments/contract/internal/sandbox-control/client.js';
export type * as SandboxControl from '@merchant-payments/contract/internal/sandbox-control/types.js';
