// Clients wired for the behaviour tests: known credentials, a sleep that records the delays asked for instead of waiting.
import {
  createVariantAClient,
  createVariantBClient,
  type ClientOptions,
  type Sleep,
} from '../../packages/contract/src/index.js';

/** Credentials the behaviour tests use; no output of the client may contain them. */
export const credentials = {
  accessToken: 'tok_live_7Fq9XbW2mZ',
  publicKey: 'pk_live_3Hd8LsQ1vN',
  secretKey: 'sk_live_9Tr4KcP6yJ',
} as const;

/** A Sleep that resolves at once and remembers every delay asked for. */
export function recordingSleep(): { delays: number[]; sleep: Sleep } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms) => {
      delays.push(ms);
    },
  };
}

type Options = Omit<ClientOptions, 'baseUrl'>;

/** A Variant A client for `baseUrl`, retrying without jitter and without waiting unless `options` says otherwise. */
export function testClientA(baseUrl: string, options: Options = {}) {
  return createVariantAClient({ baseUrl, accessToken: credentials.accessToken, ...withRecordedSleep(options) });
}

/** A Variant B client for `baseUrl`, like testClientA. */
export function testClientB(baseUrl: string, options: Options = {}) {
  return createVariantBClient({
    baseUrl,
    publicKey: credentials.publicKey,
    secretKey: credentials.secretKey,
    ...withRecordedSleep(options),
  });
}

function withRecordedSleep(options: Options): Options {
  if (options.retry === false) return options;
  return { ...options, retry: { jitter: false, sleep: recordingSleep().sleep, ...options.retry } };
}
