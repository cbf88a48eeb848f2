// The shapes runConformance takes and returns: its options, one check's outcome and the report.
import type { Variant } from '@merchant-payments/contract/internal/validation/index.js';

/** Variant A's credential (a bearer token), or Variant B's key pair. */
export type Credentials = { accessToken: string } | { publicKey: string; secretKey: string };

/** The stages in the order they run; `--only` takes these names. */
export const STAGES = ['flows', 'fuzz', 'invariants', 'webhooks'] as const;
export type StageName = (typeof STAGES)[number];

/** What runConformance needs: the server, its variant and credentials, which stages, and the fuzz bounds. */
export interface ConformanceOptions {
  variant: Variant;
  /** The server's root, such as `https://staging.example` (operation paths, `/merchant/v1/...` included, are appended). */
  baseUrl: string;
  /** Default: read from PAYMENTS_ACCESS_TOKEN (Variant A) or PAYMENTS_PUBLIC_KEY and PAYMENTS_SECRET_KEY (Variant B). */
  credentials?: Credentials;
  /** Names of the stages to run (of STAGES); default: all. An unknown name throws ConformanceUsageError. */
  only?: readonly string[];
  /** Seed of the generated requests and command sequences; the same seed sends the same requests. Default 1. */
  seed?: number;
  /**
   * Generated requests per operation in the fuzz stage (half valid, half invalid), and the invariants stage's budget:
   * this many requests per operation of the variant. Default 20.
   */
  requests?: number;
  /** The fetch to send with; default globalThis.fetch. Tests pass a sandbox's in-process fetch. */
  fetch?: (request: Request) => Promise<Response>;
  /** Called after every request, to show progress. */
  onProgress?: (progress: Progress) => void;
  /** Time-out of one request in milliseconds. Default 10 000. */
  timeoutMs?: number;
  /**
   * Deadline of the whole run in milliseconds (default 900 000, 15 minutes): a stage still running then stops, the
   * stages after it do not run, and the report fails each with `stage_completed`.
   */
  deadlineMs?: number;
  /** Largest response body read, in bytes (default 8 MiB, as the clients); a larger one fails `request_completed`. */
  maxResponseBytes?: number;
  /**
   * The server has our sandbox's control API (/_sandbox): the kit moves its clock, forces outcomes and registers its
   * own webhook endpoint, so every transition is exercised. Without it the kit checks what it can observe.
   */
  sandbox?: boolean;
  /**
   * Judge only what a server that keeps no state (the contract mock, a stub) can pass: the webhooks stage, the
   * invariants stage's checks that follow an object from one request to the next, and the workflows that need state
   * are left out, each named in the report's `skipped`. Refused with `sandbox`.
   */
  stateless?: boolean;
  /** The port on 127.0.0.1 the webhooks stage listens on (default 4030; 0 takes a free one). */
  webhookPort?: number;
  /** The `whsec_…` secret deliveries are verified with. Default: WEBHOOK_SECRET; with `sandbox`, one the kit registers. */
  webhookSecret?: string;
  /** How long the webhooks stage waits for the event of a status change, in milliseconds. Default 10 000. */
  webhookWaitMs?: number;
}

export interface Progress {
  stage: StageName;
  /** The operation, workflow or event the stage is on. */
  operation: string;
  sent: number;
  /** Checks failed so far. */
  failed: number;
}

/** A request as the report shows it: credentials masked as the names of their environment variables. */
export interface RequestRecord {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ResponseRecord {
  status: number;
  contentType: string | null;
  /** The start of the body (at most 500 characters). */
  bodyExcerpt: string;
}

/**
 * One check of one operation. Passing checks are reported once per operation; a failing one carries its first
 * failing request and response, a curl line that reproduces it, and how many requests failed it.
 */
export interface CheckResult {
  stage: StageName;
  check: string;
  /** What was checked: an operationId, an Arazzo workflow, an object or an event. */
  operation: string;
  ok: boolean;
  /** The contract rule the check enforces. */
  rule: string;
  /** How many requests the check judged, and how many of those failed. */
  judged: number;
  failures: number;
  detail?: string;
  request?: RequestRecord;
  response?: ResponseRecord;
  curl?: string;
}

export interface ConformanceReport {
  variant: Variant;
  baseUrl: string;
  seed: number;
  passed: boolean;
  /** Requests sent, all stages together. */
  requests: number;
  durationMs: number;
  checks: CheckResult[];
  /** What a stage could not check against this server, and why (a transition that needs --sandbox to happen, say). */
  skipped: Skipped[];
  /**
   * Which tenant the run used. With --sandbox, a test tenant the kit made and deleted after the run (`test`), so that
   * nothing the credentials' tenant held met it; otherwise the credentials' own (`given`), with why no test tenant
   * could be made when the kit tried, where the checks judge only the objects the kit made.
   */
  tenant: { kind: 'test'; id: string } | { kind: 'given'; noTestTenant?: string };
  /**
   * Present when the answers showed that the server keeps no state, as the contract mock (Prism) does: what showed it
   * (a retrieve answered with another object than the one asked for, say). Such a server answers from fixed examples, so
   * the checks that follow an object from one request to the next (`needsState`) cannot pass on it.
   */
  stateless?: string;
  /**
   * Present when the run was asked (`stateless`, --stateless) to judge only what a server without state can pass; what
   * it left out is in `skipped`.
   */
  statelessOnly?: true;
}

/** Something a stage left unchecked, named so the report never passes it silently. */
export interface Skipped {
  stage: StageName;
  /** What was left out: a workflow, an operation, a row of a lifecycle table; WHOLE_STAGE when the stage did not run. */
  subject: string;
  reason: string;
}

/** The subject of a Skipped that stands for the whole stage (the flows stage without @redocly/cli installed). */
export const WHOLE_STAGE = 'the whole stage';
