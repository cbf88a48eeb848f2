// Where the control API plugs in: a hono app built from the runtime, mounted under /_sandbox. The routes themselves
// (clock, reset, events, deliveries, endpoints, forced statuses, faults) live with the control API's own module.
import type { Hono } from 'hono';
import type { SandboxRuntime } from '../runtime.js';

/** The prefix every control route is under (it plays the part of Stripe's /v1/test_helpers). */
export const CONTROL_PREFIX = '/_sandbox';

/** Builds the control API's routes, relative to CONTROL_PREFIX; they authenticate with `runtime.authenticate`. */
export type ControlRoutes = (runtime: SandboxRuntime) => Hono;
