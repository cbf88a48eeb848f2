// The fetch of tenants' webhook endpoints when the sandbox was given none: undici's own fetch through an Agent whose
// connections look their host up with the egress rule's `connectLookup`, so that the addresses the rule judged are
// the ones connected to, and a second lookup (DNS rebinding) has nothing to swap.
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import type { EgressRule } from './egress.js';

/** A fetch held to the egress rule, and how to close its connections. */
export interface PinnedFetch {
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** Closes the pooled connections (the sandbox's close()). */
  close(): Promise<void>;
}

/** A fetch whose every connection goes to an address `rule` allowed; a refused one fails with an EgressRefusedError as its cause. */
export function createPinnedFetch(rule: EgressRule): PinnedFetch {
  const agent = new Agent({ connect: { lookup: rule.connectLookup } });
  let closing: Promise<void> | undefined;
  return {
    // Note: undici's Response is the same WHATWG class as the global one, typed apart; deliver() reads status, headers and body.
    fetch: (url, init) =>
      undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher: agent }) as unknown as Promise<Response>,
    close: () => (closing ??= agent.destroy()),
  };
}
