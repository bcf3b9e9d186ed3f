// One attempt on one route, up to the moment it has something for the client: a whole answer, a binary
// answer's headers, or a stream's first event. Nothing is sent or charged here: the attempt comes back
// "ready" and the loop commits it (it won) or discards it (a hedge beat it). A stream's headers are held
// until its first event, so a slow first token or an empty stream can still fail over invisibly.
import { GatewayError, upstreamCredentialsRefused, upstreamTimeout, upstreamUnreachable } from '../gateway-errors.ts';
import { UpstreamCredentialError } from '../upstream/upstream-credential-error.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { sendUpstream, type UpstreamResponse } from '../upstream/send-upstream.ts';
import type { RelayHop, UpstreamCallShape } from './relay-hop.ts';
import { classifyTransportError, classifyUpstreamStatus, DEFAULT_TIMEOUTS, retryAfterMs, type FailureKind } from './attempt-policy.ts';
import { recordCall } from './record-call.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import { upstreamModelFor } from './resolve-candidates.ts';
import { createSsePump, type SsePump } from './sse-pump.ts';
import type { ModelRoute } from './attempts-order.ts';
import { bytesToClient, streamToClient } from './attempts-stream.ts';

export interface AttemptContext {
  deps: RelayDeps;
  call: RelayCall;
  hop: RelayHop;
  routes: ModelRoute[];
}

export type AttemptOutcome =
  | { kind: 'ready'; commit(): RelayResult; discard(): Promise<void> }
  | { kind: 'failure'; failure: FailureKind; error: GatewayError; retryAfterMs: number | null }
  /** Stopped by the loop (a hedge won elsewhere): says nothing about the channel. */
  | { kind: 'cancelled' };

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

/**
 * `signal` is the call's own, or (when hedging) one the loop can abort for this attempt alone. A client
 * that went away makes this throw; an attempt cancelled by the loop comes back `cancelled`.
 */
export async function attemptOnce(context: AttemptContext, channel: RoutedChannel, model: string, signal: AbortSignal): Promise<AttemptOutcome> {
  const { deps, call, hop } = context;
  const started = performance.now();
  const upstreamModel = upstreamModelFor(channel, model);
  const note = (status: number | null, outcome: string, error: string | null, code?: string) =>
    call.meter.attempts.push({ model, channel: channel.name, status, outcome, error, ...(code ? { code } : {}), ms: Math.round(performance.now() - started) });
  const fail = (failure: FailureKind, error: GatewayError, status: number | null, retryAfter: number | null = null): AttemptOutcome => {
    note(status, failure, error.message, error.gatewayCode);
    deps.logger.warn({ requestId: call.requestId, channel: channel.name, model, failure, status, code: error.gatewayCode, err: error.message }, 'upstream attempt failed');
    return { kind: 'failure', failure, error, retryAfterMs: retryAfter };
  };
  const stopped = (error: unknown): AttemptOutcome => {
    if (call.signal.aborted) throw error;
    note(null, 'cancelled', null);
    return { kind: 'cancelled' };
  };
  const transportFailure = (error: unknown, what: string, status: number | null): AttemptOutcome => {
    if (signal.aborted) return stopped(error);
    // A token endpoint refused the channel's credential (Vertex, Entra ID): like an upstream 401.
    if (error instanceof UpstreamCredentialError) {
      deps.logger.warn({ requestId: call.requestId, channel: channel.name, detail: error.message }, 'the channel credential was refused by its token endpoint');
      return fail('credentials', upstreamCredentialsRefused(channel.name, error.status ?? 401, error.upstreamCode), error.status);
    }
    const kind = classifyTransportError(error);
    return fail(kind, kind === 'silent' ? upstreamTimeout(channel.name, what) : upstreamUnreachable(channel.name, error), status);
  };

  let shape: UpstreamCallShape;
  try {
    shape = await hop.request(channel, upstreamModel);
  } catch (error) {
    // The request cannot be written for this channel (a feature its format cannot express): the client's to fix.
    if (error instanceof GatewayError) return fail('final', error, null);
    throw error;
  }
  let response: UpstreamResponse;
  try {
    response = await sendUpstream(deps.agents, {
      channel,
      ...shape,
      signal,
      headersTimeoutMs: channel.timeouts.headersMs ?? (call.stream ? DEFAULT_TIMEOUTS.streamHeadersMs : DEFAULT_TIMEOUTS.wholeHeadersMs),
      idleTimeoutMs: channel.timeouts.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
    });
  } catch (error) {
    return transportFailure(error, 'response headers', null);
  }
  deps.metrics.upstreamLatency.observe({ channel: channel.name }, (performance.now() - started) / 1000);

  if (response.statusCode >= 400) {
    const text = await response.text().catch(() => '');
    if (signal.aborted) return stopped(signal.reason);
    const error = hop.error(channel, response.statusCode, text);
    return fail(classifyUpstreamStatus(response.statusCode, error), error, response.statusCode, retryAfterMs(response.headers['retry-after']));
  }

  const win = (usageModel: string) => {
    note(response.statusCode, 'ok', null);
    call.meter.pricing = deps.state.current.pricing.get(usageModel);
  };
  if (hop.passBytes) {
    const passBytes = hop.passBytes;
    const contentType = String(response.headers['content-type'] ?? 'application/octet-stream');
    return {
      kind: 'ready',
      commit() {
        win(model);
        const body = bytesToClient(context, response, { channel, model, upstreamModel, usage: () => passBytes.usage() });
        return { kind: 'stream', status: response.statusCode, headers: { 'content-type': contentType }, body };
      },
      discard: async () => response.abort(),
    };
  }
  const isSse = String(response.headers['content-type'] ?? '').includes('text/event-stream');
  if (!call.stream || !isSse || !hop.stream) {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      return transportFailure(error, 'response body', response.statusCode);
    }
    const answer = hop.whole(text, channel);
    return {
      kind: 'ready',
      commit() {
        win(model);
        // Recorded right after the answer is written (the write happens in this same turn of the event loop,
        // setImmediate at its end): the charge is never skipped, and it no longer delays the client.
        setImmediate(recordCall, deps, call, { model, status: response.statusCode, usage: answer.usage, channelId: channel.id, upstreamModel, ttftMs: null, error: null });
        return { kind: 'buffer', status: response.statusCode, headers: { 'content-type': answer.contentType }, body: answer.body };
      },
      discard: async () => {},
    };
  }

  const converter = hop.stream(channel);
  const pump = createSsePump(response.chunks(), converter, (error) => deps.logger.warn({ requestId: call.requestId, channel: channel.name, err: error.message }, 'skipped a malformed upstream event'));
  let first: { text: string; done: boolean } | null;
  try {
    first = await firstOutput(pump, channel.timeouts.firstTokenMs ?? DEFAULT_TIMEOUTS.firstTokenMs, signal);
  } catch (error) {
    await pump.stop();
    if (signal.aborted) return stopped(error);
    if (error instanceof FirstTokenTimeout) return fail('silent', upstreamTimeout(channel.name, 'first token'), 200);
    return transportFailure(error, 'first token', 200);
  }
  if (first === null) {
    return fail('transient', new GatewayError(502, 'upstream_error', 'GW_ERR_EMPTY_STREAM', { message: `The upstream channel '${channel.name}' ended its stream without any event.`, code: 'upstream_empty_stream' }), 200);
  }
  const ready = first;
  return {
    kind: 'ready',
    commit() {
      win(model);
      const ttftMs = performance.now() - call.startedAt;
      const body = streamToClient(context, { channel, model, upstreamModel, converter, pump, first: ready, ttftMs });
      return { kind: 'stream', status: 200, headers: SSE_HEADERS, body };
    },
    discard: () => pump.stop(),
  };
}

export class FirstTokenTimeout extends Error {}

/** Reads until the converter has something for the client, or the stream ends (null when it said nothing). */
export async function firstOutput(pump: SsePump, timeoutMs: number, signal: AbortSignal): Promise<{ text: string; done: boolean } | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FirstTokenTimeout()), timeoutMs);
  });
  const read = (async () => {
    for (;;) {
      const step = await pump.next();
      if (step.text || step.done) return step.text ? step : null;
      if (signal.aborted) throw signal.reason;
    }
  })();
  try {
    return await Promise.race([read, timeout]);
  } finally {
    clearTimeout(timer);
    read.catch(() => {}); // a read still pending after a timeout fails when the pump stops; nobody waits for it
  }
}
