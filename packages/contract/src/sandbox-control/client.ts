// The client of the sandbox's control API (/_sandbox): either variant's credentials, on the clients' shared transport.
import type { paths } from '../../generated/types/sandbox.js';
import { bearerHeaders, keyPairHeaders } from '../client/auth.js';
import { buildClient, type VariantSetup } from '../client/create-client.js';
import { ClientConfigError } from '../client/errors/client-config-error.js';
import { requireCredential, type ClientOptions } from '../client/options.js';
import type { TypedClient } from '../client/typed-client.js';

/** The control API's paths, as generated from packages/contract/openapi/sandbox/; its Idempotency-Key is optional already. */
export type SandboxControlPaths = paths;

/** The control client: `control.POST('/_sandbox/clock/advance', { body: { seconds: 60 } })`, each call returning `{ data, error, response }`. */
export type SandboxControlClient = TypedClient<SandboxControlPaths>;

/** The tenant's credentials as Variant A sends them. */
export interface SandboxBearerCredentials {
  /** The bearer token of the tenant, sent as `Authorization: Bearer <accessToken>`. */
  accessToken: string;
  publicKey?: never;
  secretKey?: never;
}

/** The tenant's credentials as Variant B sends them. */
export interface SandboxKeyPairCredentials {
  /** Sent as `X-Public-Key`; it names the tenant. */
  publicKey: string;
  /** Sent as `X-Secret-Key`. */
  secretKey: string;
  accessToken?: never;
}

/** Options of createSandboxControlClient: the shared client options and the credentials of the tenant to control. */
export type SandboxControlClientOptions = ClientOptions & (SandboxBearerCredentials | SandboxKeyPairCredentials);

const USAGE =
  'createSandboxControlClient needs { baseUrl, accessToken } (Variant A) or { baseUrl, publicKey, secretKey } (Variant B)';

/**
 * Creates a typed client of the sandbox's control API for the tenant that the credentials name; throws ClientConfigError
 * on missing, mixed or malformed credentials or a bad baseUrl. Time-outs, retries, redirects and Idempotency-Keys work
 * as in the variants' clients.
 */
export function createSandboxControlClient(options: SandboxControlClientOptions): SandboxControlClient {
  if (typeof options !== 'object' || options === null) throw new ClientConfigError('options', `${USAGE}.`);
  const { accessToken, publicKey, secretKey, ...shared } = options;
  return buildClient<SandboxControlPaths>(shared, credentialsOf({ accessToken, publicKey, secretKey }));
}

// Note: the same tenant is named by one kind of credential only, so both kinds at once are refused, not merged.
function credentialsOf(given: { accessToken?: unknown; publicKey?: unknown; secretKey?: unknown }): VariantSetup {
  const label = 'SandboxControlClient';
  const bearer = given.accessToken !== undefined;
  const pair = given.publicKey !== undefined || given.secretKey !== undefined;
  if (bearer && pair) {
    throw new ClientConfigError(
      'accessToken',
      `${USAGE}, not both: the credentials name the tenant, so pass the ones of the variant it uses.`,
    );
  }
  if (bearer) {
    const token = requireCredential('accessToken', given.accessToken, 'Authorization');
    return { variant: 'A', credentials: bearerHeaders(token), secrets: [token], label };
  }
  if (!pair) throw new ClientConfigError('accessToken', `${USAGE}: no credentials were given.`);
  const pub = requireCredential('publicKey', given.publicKey, 'X-Public-Key');
  const secret = requireCredential('secretKey', given.secretKey, 'X-Secret-Key');
  return { variant: 'B', credentials: keyPairHeaders(pub, secret), secrets: [pub, secret], label };
}
