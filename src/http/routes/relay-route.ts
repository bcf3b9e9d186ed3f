// One thin route shape for every relayed JSON endpoint: authenticate, validate, build the call, relay, send.
// Fastify serves each such route; the lean lane (src/http/relay-lane.ts) serves the same options straight
// from node:http when a request needs nothing Fastify adds, through the same relayForKey.
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CachedKey } from '../../accounts/key-index.ts';
import { clientTraceHeaders, type RelayDeps } from '../../relay/relay-deps.ts';
import { newCallMeter, type RelayCall, type RelayResult } from '../../relay/relay-types.ts';
import type { PreparedCall } from '../../relay/prepared-call.ts';

export type { PreparedCall } from '../../relay/prepared-call.ts';
import type { WireFormat } from '../../providers/provider-definition.ts';
import { authenticateRequest } from '../authenticate.ts';
import { abortSignalForClient } from '../client-abort.ts';
import { replyTarget, sendRelayResult, type AnswerTarget } from '../send-relay-result.ts';
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

/** One request to relay, as relayForKey needs it: whoever received it (Fastify or the lean lane). */
export interface RelayExchange extends AnswerTarget {
  readonly headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when there was none). */
  readonly body: unknown;
  readonly rawBody: Buffer | undefined;
  /** Told the model the request names, once known, for the requests metric. */
  noteModel(model: string): void;
}

export function relayRoute(app: FastifyInstance, deps: RelayDeps, options: RelayRouteOptions): void {
  app.relayLane?.add(options);
  app.post(options.url, { config: { errorFormat: options.inboundFormat } }, async (request, reply) => {
    const startedAt = performance.now();
    await relayForKey(deps, fastifyExchange(request, reply), authenticateRequest(deps.state, request), options, startedAt);
    return reply;
  });
}

/** A Fastify request and its reply as a relay exchange. */
export function fastifyExchange(request: FastifyRequest, reply: FastifyReply): RelayExchange {
  return {
    ...replyTarget(reply),
    headers: request.headers,
    body: request.body,
    rawBody: request.rawBody,
    noteModel(model) {
      request.metricsModel = model;
    },
  };
}

const NO_FORWARD_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Relays one request under a key already known: through the same limits, relay and metering whoever the
 * caller is (an sk- key, or the dashboard's playground under the signed-in user's playground key).
 */
export async function relayForKey(deps: RelayDeps, exchange: RelayExchange, key: CachedKey, options: RelayRouteOptions, startedAt = performance.now()): Promise<void> {
    let call: RelayCall | undefined;
    let result: RelayResult;
    try {
      options.checkHeaders?.(exchange.headers);
      const prepared = options.prepare(exchange.body);
      // Shared and frozen when the route forwards none (most): a call keeps it while its stream is open.
      let forwardHeaders = NO_FORWARD_HEADERS;
      if (options.forwardHeaders) {
        forwardHeaders = {};
        for (const name of options.forwardHeaders) {
          const value = exchange.headers[name];
          if (typeof value === 'string') forwardHeaders[name] = value;
        }
      }
      exchange.noteModel(prepared.model);
      call = {
        requestId: exchange.requestId,
        key,
        endpoint: options.url,
        inboundFormat: options.inboundFormat,
        model: prepared.model,
        stream: prepared.stream,
        body: prepared.body,
        rawBody: exchange.rawBody ?? Buffer.alloc(0),
        signal: abortSignalForClient(exchange.response),
        startedAt,
        forwardHeaders,
        meter: newCallMeter(),
        traceHeaders: clientTraceHeaders(deps, exchange.headers),
      };
      result = await prepared.relay(deps, call);
    } catch (error) {
      const body = exchange.body as { model?: unknown; stream?: unknown } | null | undefined;
      recordRefusedCall(deps, {
        requestId: exchange.requestId,
        key,
        endpoint: options.url,
        inboundFormat: options.inboundFormat,
        model: call?.model ?? body?.model,
        stream: call?.stream ?? body?.stream === true,
        startedAt,
      }, error);
      throw error;
    }
    // Outside the try: a committed answer is recorded by the relay (a refusal record here would count it
    // twice). Returned, not awaited: this function's frame (the prepared call, the options) is not kept
    // suspended for as long as a stream stays open.
    return sendRelayResult(exchange, result);
}
