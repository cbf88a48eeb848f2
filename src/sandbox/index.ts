// Public entry of `./sandbox`: the typed client of the sandbox's control API (/_sandbox) and its named types.
export {
  createSandboxControlClient,
  type SandboxBearerCredentials,
  type SandboxControlClient,
  type SandboxControlClientOptions,
  type SandboxControlPaths,
  type SandboxKeyPairCredentials,
} from './control-client.js';
export type * as SandboxControl from './control-types.js';
