// GET /_sandbox/webhook-listener (Connect Webhook Listener): past the pipeline's credentials, rate limit and checks,
// makes or resumes the tenant's listener endpoint and accepts the WebSocket upgrade (http/upgrade.ts), which the
// listener hub then holds.
import { connectListener } from '../core/index.js';
import { generateWebhookSecret } from '../options.js';
import type { SandboxRuntime } from '../runtime.js';
import { webhookUrlProblem } from './checks.js';
import type { ControlOperation } from './handler.js';
import { problemReply } from './reply.js';

const NOT_AN_UPGRADE =
  'This operation opens a WebSocket: send it with the headers Upgrade: websocket and Connection: Upgrade, to a sandbox served over HTTP (merchant-payments webhook listen --from does).';

/** GET /_sandbox/webhook-listener: 101, the socket then carries the listener's frames. */
export const connectWebhookListener = (runtime: SandboxRuntime): ControlOperation => ({
  operationId: 'connectWebhookListener',
  async run({ tenant, query, headers }) {
    const url = query.forward_to as string;
    const detail = webhookUrlProblem(url);
    if (detail) return problemReply('validation_failed', detail, [{ pointer: '/forward_to', detail }]);
    if (!runtime.upgrades.awaits(headers)) return problemReply('bad_request', NOT_AN_UPGRADE);
    const secret = generateWebhookSecret();
    const resume = query.listener as string | undefined;
    const connected = await runtime.store.transaction(tenant, (state) =>
      connectListener(
        state,
        { url, secret, resume, quota: runtime.quotas.webhookEndpoints },
        runtime.now(state),
        runtime.wallNow(),
      ),
    );
    if (!connected) {
      const most = runtime.quotas.webhookEndpoints;
      return problemReply(
        'limit_reached',
        `This tenant already has ${most} webhook endpoints, its quota of webhook endpoints (${most}); delete one first.`,
      );
    }
    const { endpoint } = connected;
    runtime.upgrades.accept(headers, { tenant, id: endpoint.id, secret: endpoint.secret! });
    return { status: 101 };
  },
});
