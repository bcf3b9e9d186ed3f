// GET /v1/realtime (WebSocket). The key comes as `Authorization: Bearer` or, for browsers, as the
// `openai-insecure-api-key.<key>` subprotocol; the model from the query. Refusals (401, 403, 404, 429)
// are answered over HTTP before the upgrade, in OpenAI's error envelope.
//
// The WebSocket side (ws, the realtime relay) is loaded on the first realtime request, not at start: an
// idle gateway, or one whose clients never use realtime, does not hold it (~1.5 MB with @fastify/websocket,
// issue 16). Upgrades are dispatched through Fastify's router the way @fastify/websocket did it, so the
// route's hooks, refusals and error envelope are unchanged (./websocket-upgrades.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { upgradeTraceHeaders, type RelayDeps } from '../../relay/relay-deps.ts';
import { authenticateKey } from '../../accounts/authenticate-key.ts';
import { invalidRequest, gatewayError } from '../../gateway-errors.ts';
import type { RealtimeSession } from '../../realtime/realtime-relay.ts';
import { presentedKey } from '../authenticate.ts';
import { recordRefusedCall } from '../../relay/record-refusal.ts';
import type { RoutedChannel } from '../../routing/routing-table.ts';
import { installWebSocketUpgrades, type WebSocketUpgrades } from './websocket-upgrades.ts';

/** The realtime relay (and ws through it), imported once, on first use. */
let realtimeRelay: Promise<typeof import('../../realtime/realtime-relay.ts')> | undefined;
const loadRealtimeRelay = () => (realtimeRelay ??= import('../../realtime/realtime-relay.ts'));

const KEY_PROTOCOL_PREFIX = 'openai-insecure-api-key.';

declare module 'fastify' {
  interface FastifyRequest {
    realtime?: { session: RealtimeSession; channel: RoutedChannel };
  }
}

/** The subprotocol the server answers with: never the one carrying the key. */
function chooseRealtimeProtocol(offered: Set<string>): string | false {
  if (offered.has('realtime')) return 'realtime';
  for (const protocol of offered) if (!protocol.startsWith(KEY_PROTOCOL_PREFIX)) return protocol;
  return false;
}

function keyFromProtocols(request: FastifyRequest): string | undefined {
  const header = request.headers['sec-websocket-protocol'];
  const offered = (Array.isArray(header) ? header.join(',') : header ?? '').split(',').map((p) => p.trim());
  return offered.find((p) => p.startsWith(KEY_PROTOCOL_PREFIX))?.slice(KEY_PROTOCOL_PREFIX.length);
}

export function realtimeRoute(app: FastifyInstance, deps: RelayDeps): WebSocketUpgrades {
  const upgrades = installWebSocketUpgrades(app, {
    handleProtocols: (protocols) => chooseRealtimeProtocol(protocols),
    maxPayload: 16 * 1024 * 1024,
  });
  app.route({
    method: 'GET',
    url: '/v1/realtime',
    config: { errorFormat: 'openai-chat' },
    preValidation: async (request) => {
      // A plain GET (no WebSocket upgrade) is told what to do, before any key or money is looked at.
      if (String(request.headers.upgrade ?? '').toLowerCase() !== 'websocket') throw upgradeRequired();
      const startedAt = performance.now();
      const key = authenticateKey(deps.state.current.keys, presentedKey(request) ?? keyFromProtocols(request), request.ip, Date.now());
      const model = (request.query as { model?: unknown }).model;
      try {
        if (typeof model !== 'string' || model.length === 0) throw invalidRequest("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
        const beta = request.headers['openai-beta'];
        const session: RealtimeSession = { requestId: request.id, key, model, forwardHeaders: typeof beta === 'string' ? { 'openai-beta': beta } : {}, traceHeaders: upgradeTraceHeaders(deps, request.headers) };
        const { admitRealtime } = await loadRealtimeRelay();
        request.realtime = { session, channel: await admitRealtime(deps, session) };
        request.metricsModel = model;
      } catch (error) {
        // Refused before the upgrade, with the key known: logged like any refused call.
        recordRefusedCall(deps, { requestId: request.id, key, endpoint: '/v1/realtime', inboundFormat: 'openai-chat', model, stream: true, startedAt }, error);
        throw error;
      }
    },
    handler: async (request, reply) => {
      // Only a request that came as an upgrade has a socket to take over; anything else is refused.
      if (!upgrades.isUpgrade(request)) throw upgradeRequired();
      const { relayRealtime } = await loadRealtimeRelay();
      const { session, channel } = request.realtime!;
      await upgrades.accept(request, reply, (socket) => relayRealtime(deps, session, channel, socket));
    },
  });
  return upgrades;
}

const upgradeRequired = () => gatewayError('GW_ERR_UPGRADE_REQUIRED', {
  message: '/v1/realtime is a WebSocket endpoint: connect with a WebSocket client (Upgrade: websocket).',
  code: 'upgrade_required',
  headers: { upgrade: 'websocket', connection: 'Upgrade' },
});
