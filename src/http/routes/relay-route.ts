// One thin route shape for every relayed JSON endpoint: authenticate, validate, build the call, relay, send.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CachedKey } from '../../accounts/key-index.ts';
import type { RelayDeps } from '../../relay/relay-deps.ts';
import { newCallMeter, type RelayCall } from '../../relay/relay-types.ts';
import type { PreparedCall } from '../../relay/prepared-call.ts';

export type { PreparedCall } from '../../relay/prepared-call.ts';
import type { WireFormat } from '../../providers/provider-definition.ts';
import { authenticateRequest } from '../authenticate.ts';
import { abortSignalForClient } from '../client-abort.ts';
import { sendRelayResult } from '../send-relay-result.ts';
import { recordRefusedCall } from '../../relay/record-refusal.ts';

export interface RelayRouteOptions {
  url: string;
  /** The format its clients speak; errors are rendered in it too. */
  inboundFormat: WireFormat;
  /** Validates the body (throwing a 400 naming the field) and says how to relay it. */
  prepare(body: unknown): PreparedCall;
  /** Request headers a same-format hop passes upstream (anthropic-version, anthropic-beta). */
  forwardHeaders?: readonly string[];
  /** Refuses requests missing a header the format requires. */
  checkHeaders?(headers: Record<string, string | string[] | undefined>): void;
}

export function relayRoute(app: FastifyInstance, deps: RelayDeps, options: RelayRouteOptions): void {
  app.post(options.url, { config: { errorFormat: options.inboundFormat } }, async (request, reply) => {
    const startedAt = performance.now();
    return relayForKey(deps, request, reply, authenticateRequest(deps.state, request), options, startedAt);
  });
}

/**
 * Relays one request under a key already known: through the same limits, relay and metering whoever the
 * caller is (an sk- key, or the dashboard's playground under the signed-in user's playground key).
 */
export async function relayForKey(deps: RelayDeps, request: FastifyRequest, reply: FastifyReply, key: CachedKey, options: RelayRouteOptions, startedAt = performance.now()): Promise<FastifyReply> {
    let call: RelayCall | undefined;
    try {
      options.checkHeaders?.(request.headers);
      const prepared = options.prepare(request.body);
      const forwardHeaders: Record<string, string> = {};
      for (const name of options.forwardHeaders ?? []) {
        const value = request.headers[name];
        if (typeof value === 'string') forwardHeaders[name] = value;
      }
      request.metricsModel = prepared.model;
      call = {
        requestId: request.id,
        key,
        endpoint: options.url,
        inboundFormat: options.inboundFormat,
        model: prepared.model,
        stream: prepared.stream,
        body: prepared.body,
        rawBody: request.rawBody ?? Buffer.alloc(0),
        signal: abortSignalForClient(reply),
        startedAt,
        forwardHeaders,
        meter: newCallMeter(),
      };
      return sendRelayResult(reply, await prepared.relay(deps, call));
    } catch (error) {
      const body = request.body as { model?: unknown; stream?: unknown } | null | undefined;
      recordRefusedCall(deps, {
        requestId: request.id,
        key,
        endpoint: options.url,
        inboundFormat: options.inboundFormat,
        model: call?.model ?? body?.model,
        stream: call?.stream ?? body?.stream === true,
        startedAt,
      }, error);
      throw error;
    }
}
