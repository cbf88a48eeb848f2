// The control API's named types, read from its document: `import type { SandboxControl } from '@merchant-payments/sandbox'`.
import type { operations } from '../../generated/types/sandbox.js';

export type {
  AdvanceClockRequest,
  Clock,
  ClockAdvance,
  ClockMode,
  CreatedWebhookEndpoint,
  CreateFaultRequest,
  CreateWebhookEndpointRequest,
  Delivery,
  DeliveryAttempt,
  DeliveryOutcome,
  DeliveryState,
  Fault,
  FaultKind,
  FaultOperationId,
  ForceAppealStatusRequest,
  ForcePaymentStatusRequest,
  ForcePayoutStatusRequest,
  ObjectStatus,
  StatusChange,
  TestTenant,
  TestTenantCredentials,
  Trigger,
  WebhookEndpoint,
  WebhookLayout,
  WebhookSecret,
} from '../../generated/types/sandbox.js';
export type {
  SandboxBearerCredentials as BearerCredentials,
  SandboxControlClient as Client,
  SandboxControlClientOptions as ClientOptions,
  SandboxKeyPairCredentials as KeyPairCredentials,
  SandboxControlPaths as Paths,
} from './client.js';
/** Every operation of the control API by operationId, as generated from its document. */
export type Operations = operations;
