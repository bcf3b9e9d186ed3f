// GET /v1/realtime (WebSocket). The key comes as `Authorization: Bearer` or, for browsers, as the
// `openai-insecure-api-key.<key>` subprotocol; the model from the query. Refusals (401, 403, 404, 429)
// are answered over HTTP before the upgrade, in OpenAI's error envelope.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { authenticateKey } from '../../accounts/authenticate-key.ts';
import { GatewayError, invalidRequest } from '../../gateway-errors.ts';
import { admitRealtime, relayRealtime, type RealtimeSession } from '../../realtime/realtime-relay.ts';
import { presentedKey } from '../authenticate.ts';
import { recordRefusedCall } from '../../relay/record-refusal.ts';
import type { RoutedChannel } from '../../routing/routing-table.ts';

const KEY_PROTOCOL_PREFIX = 'openai-insecure-api-key.';

declare module 'fastify' {
  interface FastifyRequest {
    realtime?: { session: RealtimeSession; channel: RoutedChannel };
  }
}

/** The subprotocol the server answers with: never the one carrying the key. */
export function chooseRealtimeProtocol(offered: Set<string>): string | false {
  if (offered.has('realtime')) return 'realtime';
  for (const protocol of offered) if (!protocol.startsWith(KEY_PROTOCOL_PREFIX)) return protocol;
  return false;
}

function keyFromProtocols(request: FastifyRequest): string | undefined {
  const header = request.headers['sec-websocket-protocol'];
  const offered = (Array.isArray(header) ? header.join(',') : header ?? '').split(',').map((p) => p.trim());
  return offered.find((p) => p.startsWith(KEY_PROTOCOL_PREFIX))?.slice(KEY_PROTOCOL_PREFIX.length);
}

export function realtimeRoute(app: FastifyInstance, deps: RelayDeps): void {
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
        const session: RealtimeSession = { requestId: request.id, key, model, forwardHeaders: typeof beta === 'string' ? { 'openai-beta': beta } : {} };
        request.realtime = { session, channel: await admitRealtime(deps, session) };
        request.metricsModel = model;
      } catch (error) {
        // Refused before the upgrade, with the key known: logged like any refused call.
        recordRefusedCall(deps, { requestId: request.id, key, endpoint: '/v1/realtime', inboundFormat: 'openai-chat', model, stream: true, startedAt }, error);
        throw error;
      }
    },
    // Never reached: preValidation refuses every request that is not an upgrade.
    handler: async () => {
      throw upgradeRequired();
    },
    wsHandler: (socket: WebSocket, request: FastifyRequest) => {
      const { session, channel } = request.realtime!;
      relayRealtime(deps, session, channel, socket);
    },
  });
}

const upgradeRequired = () => new GatewayError(426, 'invalid_request_error', 'GW_ERR_UPGRADE_REQUIRED', {
  message: '/v1/realtime is a WebSocket endpoint: connect with a WebSocket client (Upgrade: websocket).',
  code: 'upgrade_required',
  headers: { upgrade: 'websocket', connection: 'Upgrade' },
});
