// The Realtime API over WebSocket: the gateway opens the upstream socket to the chosen channel and relays
// messages both ways, closing each side when the other closes. Each `response.done` event is metered and
// charged as its own call; when the wallet runs dry the session is ended with an error event.
import type { IncomingHttpHeaders } from 'node:http';
import WebSocket from 'ws';
import type { CachedKey } from '../accounts/key-index.ts';
import { gatewayError } from '../gateway-errors.ts';
import { admitCall } from '../metering/admission.ts';
import { emptyUsage, type Usage } from '../metering/usage.ts';
import { authenticatedHeaders } from '../upstream/upstream-auth.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { operationPath, supportsOperation } from '../providers/operation-path.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import { recordCall } from '../relay/record-call.ts';
import { startCallTrace } from '../relay/call-tracing.ts';
import { newCallMeter, type RelayCall } from '../relay/relay-types.ts';
import { resolveCandidates, upstreamModelFor } from '../relay/resolve-candidates.ts';
import { openaiChatFormat } from '../formats/index.ts';
import { speaksFamilyOf } from '../relay/hops/api-family.ts';

export interface RealtimeSession {
  requestId: string;
  key: CachedKey;
  model: string;
  /** Headers to pass upstream (OpenAI-Beta). */
  forwardHeaders: Record<string, string>;
  /** The upgrade request's traceparent and tracestate (tracing on): each response's span is their child. */
  traceHeaders?: IncomingHttpHeaders | undefined;
}

/**
 * Checks the model, limits and wallet, and picks the channel, before the client's socket is accepted.
 * @public Loaded on first use through a dynamic import (issue 16: idle memory).
 */
export async function admitRealtime(deps: RelayDeps, session: RealtimeSession): Promise<RoutedChannel> {
  const snapshot = deps.state.current;
  const channels = resolveCandidates(snapshot.routing, session.key, session.model).filter((channel) => speaksFamilyOf(channel, openaiChatFormat) && supportsOperation(channel, 'realtime'));
  const channel = channels[0];
  if (!channel) throw gatewayError('GW_ERR_UNSUPPORTED_ENDPOINT', { message: `The model '${session.model}' is not served by a channel that supports realtime.`, param: 'model', code: 'unsupported_endpoint' });
  // One response's worth must fit the wallet to start; each response is then charged as it completes.
  const admission = await admitCall(snapshot, deps.accounting, deps.rateLimiter, {
    key: session.key,
    model: session.model,
    estimate: () => ({ ...emptyUsage(), inputTokens: 1000, outputTokens: 1000 }),
  });
  if (admission.reservation) await deps.accounting.settle(admission.reservation, 0);
  return channel;
}

/** @public Loaded on first use through a dynamic import (issue 16: idle memory). */
export function relayRealtime(deps: RelayDeps, session: RealtimeSession, channel: RoutedChannel, client: WebSocket): void {
  const upstreamModel = upstreamModelFor(channel, session.model);
  const url = new URL(channel.origin + channel.basePath + operationPath(channel, 'realtime', upstreamModel));
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.searchParams.set('model', upstreamModel);
  const pending: WebSocket.RawData[] = [];
  // The client may speak before the upstream socket exists (authentication can be asynchronous): kept until then.
  let upstream: WebSocket | null = null;
  client.on('message', (data, isBinary) => {
    if (upstream?.readyState === WebSocket.OPEN) upstream.send(data, { binary: isBinary });
    else pending.push(data); // sent once the upstream socket opens
  });
  const headers = authenticatedHeaders(channel, 'GET', `${url.pathname}${url.search}`.slice(channel.basePath.length), session.forwardHeaders, null);
  const open = (signed: Record<string, string>) => {
    if (client.readyState !== WebSocket.OPEN) return; // gone while the credentials were being prepared
    upstream = new WebSocket(url, { headers: signed });
    relayOpenSocket(deps, session, channel, client, upstream, pending, upstreamModel);
  };
  if (headers instanceof Promise) {
    headers.then(open, (error: unknown) => {
      deps.logger.warn({ requestId: session.requestId, channel: channel.name, err: (error as Error).message }, 'authenticating a realtime upstream failed');
      if (client.readyState === WebSocket.OPEN) client.close(1011, 'upstream authentication failed');
    });
  } else {
    open(headers);
  }
}

function relayOpenSocket(deps: RelayDeps, session: RealtimeSession, channel: RoutedChannel, client: WebSocket, upstream: WebSocket, pending: WebSocket.RawData[], upstreamModel: string): void {
  let responses = 0;
  /** When the upstream announced the response being generated (response.created): its span starts there. */
  let responseStartedAt: number | null = null;
  upstream.on('open', () => {
    for (const data of pending.splice(0)) upstream.send(data);
  });
  upstream.on('message', (data, isBinary) => {
    if (client.readyState === WebSocket.OPEN) client.send(data, { binary: isBinary });
    if (!isBinary) meterEvent(data.toString()).catch((error: unknown) => deps.logger.error({ err: error, requestId: session.requestId }, 'metering a realtime response failed'));
  });
  const closeBoth = (code: number, reason: string) => {
    // 1005/1006 cannot be sent in a close frame; report them as a normal or going-away close.
    const sendable = code === 1005 || code === 1006 || code < 1000 ? 1000 : code;
    if (client.readyState === WebSocket.OPEN) client.close(sendable, reason);
    if (upstream.readyState === WebSocket.OPEN) upstream.close(sendable, reason);
    if (upstream.readyState === WebSocket.CONNECTING) upstream.terminate();
  };
  client.on('close', (code, reason) => closeBoth(code, reason.toString()));
  upstream.on('close', (code, reason) => closeBoth(code, reason.toString()));
  upstream.on('error', (error) => {
    deps.logger.warn({ requestId: session.requestId, channel: channel.name, err: error.message }, 'realtime upstream socket failed');
    if (client.readyState === WebSocket.OPEN) {
      client.send(JSON.stringify({ type: 'error', event_id: `evt_gateway_${Date.now()}`, error: { type: 'server_error', code: 'upstream_unreachable', message: `The upstream channel '${channel.name}' could not be reached.`, param: null } }));
    }
    closeBoth(1011, 'upstream error');
  });
  client.on('error', () => closeBoth(1011, 'client error'));

  async function meterEvent(text: string): Promise<void> {
    if (deps.tracer && responseStartedAt === null && text.includes('"response.created"')) responseStartedAt = performance.now();
    if (!text.includes('"response.done"')) return;
    let event: { type?: string; response?: { usage?: RealtimeUsageWire } };
    try {
      event = JSON.parse(text) as typeof event;
    } catch {
      return;
    }
    if (event.type !== 'response.done') return;
    const call: RelayCall = {
      requestId: `${session.requestId}:${++responses}`,
      key: session.key,
      endpoint: '/v1/realtime',
      inboundFormat: 'openai-chat',
      model: session.model,
      stream: true,
      body: {},
      rawBody: Buffer.alloc(0),
      signal: new AbortController().signal,
      startedAt: responseStartedAt ?? performance.now(),
      forwardHeaders: {},
      // A zero reservation: settling it charges the cost without having held anything back.
      meter: { ...newCallMeter(), reservation: { userId: session.key.userId, keyId: session.key.id, amountMicros: 0 }, pricing: deps.state.current.pricing.get(session.model) },
      traceHeaders: session.traceHeaders,
    };
    responseStartedAt = null;
    if (deps.tracer) {
      // One span per response (recordCall ends it), under the client's traceparent from the upgrade, with the
      // upstream socket as its attempt.
      const trace = startCallTrace(deps.tracer, call);
      trace.serving(trace.attempt('first', channel, session.model, upstreamModel));
    }
    recordCall(deps, call, { status: 200, usage: realtimeUsage(event.response?.usage), channelId: channel.id, upstreamModel, ttftMs: null, error: null });
    if (await deps.accounting.balance(session.key.userId) <= 0 && client.readyState === WebSocket.OPEN) {
      client.send(JSON.stringify({ type: 'error', event_id: `evt_gateway_${Date.now()}`, error: { type: 'insufficient_quota', code: 'insufficient_quota', message: 'Your balance is used up; the session ends here. Top up your wallet to continue.', param: null } }));
      closeBoth(1008, 'insufficient quota');
    }
  }
}

interface RealtimeUsageWire {
  input_tokens?: number;
  output_tokens?: number;
  input_token_details?: { cached_tokens?: number };
}

function realtimeUsage(wire: RealtimeUsageWire | undefined): Usage {
  return { ...emptyUsage(), inputTokens: wire?.input_tokens ?? 0, cachedInputTokens: wire?.input_token_details?.cached_tokens ?? 0, outputTokens: wire?.output_tokens ?? 0 };
}
