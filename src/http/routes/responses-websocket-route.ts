// GET /v1/responses with `Upgrade: websocket`: the Responses API's WebSocket mode (Codex's built-in OpenAI
// provider opens it first, with `OpenAI-Beta: responses_websockets=…`; the header is accepted, not required).
// The key comes on the upgrade request (Bearer, x-api-key); a refusal (401, 403, 429 for too many open
// connections) is answered over HTTP before the upgrade, in OpenAI's error envelope. Once open, each
// response.create is relayed like a streamed POST (../responses-websocket-session.ts).
//
// Caps: open connections per key (RESPONSES_WS_MAX_PER_KEY) and in all (RESPONSES_WS_MAX_CONNECTIONS);
// a connection idle past RESPONSES_WS_IDLE_TIMEOUT_MS is closed. ws and the session load with the first
// upgrade, as for realtime (./websocket-upgrades.ts, shared with it: one upgrade listener per server).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CachedKey } from '../../accounts/key-index.ts';
import { authenticateKey } from '../../accounts/authenticate-key.ts';
import { gatewayError } from '../../gateway-errors.ts';
import { upgradeTraceHeaders, type RelayDeps } from '../../relay/relay-deps.ts';
import { presentedKey } from '../authenticate.ts';
import type { WebSocketUpgrades } from './websocket-upgrades.ts';

export interface ResponsesWebSocketLimits {
  maxPerKey: number;
  maxConnections: number;
  idleTimeoutMs: number;
}

const DEFAULT_RESPONSES_WS_LIMITS: ResponsesWebSocketLimits = { maxPerKey: 16, maxConnections: 1000, idleTimeoutMs: 300_000 };

let session: Promise<typeof import('../responses-websocket-session.ts')> | undefined;
const loadSession = () => (session ??= import('../responses-websocket-session.ts'));

declare module 'fastify' {
  interface FastifyRequest {
    responsesSocketKey?: CachedKey;
  }
}

export function responsesWebSocketRoute(app: FastifyInstance, deps: RelayDeps, upgrades: WebSocketUpgrades, limits: ResponsesWebSocketLimits = DEFAULT_RESPONSES_WS_LIMITS): void {
  const openByKey = new Map<number, number>();
  let open = 0;
  app.route({
    method: 'GET',
    url: '/v1/responses',
    config: { errorFormat: 'openai-responses' },
    preValidation: async (request: FastifyRequest) => {
      if (String(request.headers.upgrade ?? '').toLowerCase() !== 'websocket') throw upgradeRequired();
      const key = authenticateKey(deps.state.current.keys, presentedKey(request), request.ip, Date.now());
      if ((openByKey.get(key.id) ?? 0) >= limits.maxPerKey) throw tooManyConnections(`this key has ${limits.maxPerKey} Responses WebSocket connections open, the most it may`);
      if (open >= limits.maxConnections) throw tooManyConnections('the gateway has as many Responses WebSocket connections open as it takes');
      request.responsesSocketKey = key;
    },
    handler: async (request, reply) => {
      if (!upgrades.isUpgrade(request)) throw upgradeRequired();
      const key = request.responsesSocketKey!;
      const { serveResponsesSocket } = await loadSession();
      open++;
      openByKey.set(key.id, (openByKey.get(key.id) ?? 0) + 1);
      let counted = true;
      const release = () => {
        if (!counted) return;
        counted = false;
        open--;
        const left = (openByKey.get(key.id) ?? 1) - 1;
        if (left > 0) openByKey.set(key.id, left);
        else openByKey.delete(key.id);
      };
      // A handshake that never completes must not hold a place.
      request.raw.socket.once('close', release);
      const presented = presentedKey(request);
      const authenticate = () => authenticateKey(deps.state.current.keys, presented, request.ip, Date.now());
      const traceHeaders = upgradeTraceHeaders(deps, request.headers);
      await upgrades.accept(request, reply, (socket) => serveResponsesSocket(deps, socket, authenticate, request.id, { idleTimeoutMs: limits.idleTimeoutMs, traceHeaders }, release));
    },
  });
}

const upgradeRequired = () => gatewayError('GW_ERR_UPGRADE_REQUIRED', {
  message: 'GET /v1/responses is the WebSocket mode of the Responses API: connect with a WebSocket client (Upgrade: websocket), or POST /v1/responses.',
  code: 'upgrade_required',
  headers: { upgrade: 'websocket', connection: 'Upgrade' },
});

const tooManyConnections = (why: string) => gatewayError('GW_ERR_RATE_LIMITED', {
  message: `Too many WebSocket connections: ${why}. Close one, or use POST /v1/responses.`,
  code: 'rate_limit_exceeded',
});
