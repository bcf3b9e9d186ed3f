// The attempt loop: channels in order, each model of the fallback chain in turn, with the retry
// discipline of attempt-policy.ts. Until the first byte reaches the client every failure can still be
// hidden by another route; a stream's headers are held until its first event for exactly that reason.
import { GatewayError, upstreamTimeout, upstreamUnreachable } from '../gateway-errors.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { sendUpstream, type UpstreamResponse } from '../upstream/send-upstream.ts';
import type { RelayHop, StreamConverter, UpstreamCallShape } from './relay-hop.ts';
import type { Usage } from '../metering/usage.ts';
import { addUsages } from '../metering/resolve-usage.ts';
import { classifyTransportError, classifyUpstreamStatus, DEFAULT_TIMEOUTS, jitteredBackoff, retryAfterMs, RETRY_POLICY, type FailureKind } from './attempt-policy.ts';
import { recordCall } from './record-call.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import { upstreamModelFor } from './resolve-candidates.ts';
import { createSsePump, type SsePump } from './sse-pump.ts';

export interface ModelRoute {
  model: string;
  channels: RoutedChannel[];
}

type AttemptOutcome =
  | { kind: 'success'; result: RelayResult }
  | { kind: 'failure'; failure: FailureKind; error: GatewayError; retryAfterMs: number | null };

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

export async function runAttempts(deps: RelayDeps, call: RelayCall, hop: RelayHop, routes: ModelRoute[]): Promise<RelayResult> {
  const context: AttemptContext = { deps, call, hop, routes };
  let lastError: GatewayError | null = null;
  let attemptsMade = 0;
  models: for (const route of routes) {
    for (const channel of withoutOpenCircuits(deps, route.channels)) {
      for (let sameChannelTry = 0; sameChannelTry < 2; sameChannelTry++) {
        if (attemptsMade++ >= RETRY_POLICY.maxAttempts) break models;
        const outcome = await attemptOnce(context, channel, route.model);
        if (outcome.kind === 'success') return outcome.result;
        lastError = outcome.error;
        const { failure } = outcome;
        if (failure === 'final') throw outcome.error;
        if (failure === 'context-length') continue models;
        if (failure === 'credentials') {
          await deps.disableChannel(channel, outcome.error.message);
          break;
        }
        if (failure === 'rate-limited') {
          const wait = outcome.retryAfterMs;
          if (sameChannelTry === 0 && wait !== null && wait <= RETRY_POLICY.maxRetryAfterMs) {
            await sleep(wait, call.signal);
            continue;
          }
          break;
        }
        if (failure === 'transient' && sameChannelTry === 0) {
          await sleep(jitteredBackoff(), call.signal);
          continue;
        }
        break; // silent, or transient twice: the next channel
      }
    }
  }
  throw lastError ?? new GatewayError(503, 'overloaded_error', 'GW_ERR_NO_ROUTE', { message: 'Every channel for this model is unavailable right now; try again shortly.', code: 'no_available_channel' });
}

/** Channels whose circuit is open are skipped while another can serve; if none can, all are tried. */
function withoutOpenCircuits(deps: RelayDeps, channels: RoutedChannel[]): RoutedChannel[] {
  const closed = channels.filter((channel) => !deps.breakers.isOpen(channel.id));
  return closed.length > 0 ? closed : channels;
}

interface AttemptContext {
  deps: RelayDeps;
  call: RelayCall;
  hop: RelayHop;
  routes: ModelRoute[];
}

async function attemptOnce(context: AttemptContext, channel: RoutedChannel, model: string): Promise<AttemptOutcome> {
  const { deps, call, hop } = context;
  const started = performance.now();
  const upstreamModel = upstreamModelFor(channel, model);
  const note = (status: number | null, outcome: string, error: string | null, code?: string) =>
    call.meter.attempts.push({ model, channel: channel.name, status, outcome, error, ...(code ? { code } : {}), ms: Math.round(performance.now() - started) });
  const fail = (failure: FailureKind, error: GatewayError, status: number | null, retryAfter: number | null = null): AttemptOutcome => {
    note(status, failure, error.message, error.gatewayCode);
    if (failure !== 'final' && failure !== 'context-length') deps.breakers.recordFailure(channel.id);
    deps.logger.warn({ requestId: call.requestId, channel: channel.name, model, failure, status, code: error.gatewayCode, err: error.message }, 'upstream attempt failed');
    return { kind: 'failure', failure, error, retryAfterMs: retryAfter };
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
      signal: call.signal,
      headersTimeoutMs: channel.timeouts.headersMs ?? (call.stream ? DEFAULT_TIMEOUTS.streamHeadersMs : DEFAULT_TIMEOUTS.wholeHeadersMs),
      idleTimeoutMs: channel.timeouts.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
    });
  } catch (error) {
    if (call.signal.aborted) throw error;
    const kind = classifyTransportError(error);
    return fail(kind, kind === 'silent' ? upstreamTimeout(channel.name, 'response headers') : upstreamUnreachable(channel.name, error), null);
  }
  deps.metrics.upstreamLatency.observe({ channel: channel.name }, (performance.now() - started) / 1000);

  if (response.statusCode >= 400) {
    const text = await response.text().catch(() => '');
    const error = hop.error(channel, response.statusCode, text);
    return fail(classifyUpstreamStatus(response.statusCode, error), error, response.statusCode, retryAfterMs(response.headers['retry-after']));
  }

  const settled = (usageModel: string) => {
    deps.breakers.recordSuccess(channel.id);
    call.meter.pricing = deps.state.current.pricing.get(usageModel);
  };
  if (hop.passBytes) {
    settled(model);
    note(response.statusCode, 'ok', null);
    const passBytes = hop.passBytes;
    const contentType = String(response.headers['content-type'] ?? 'application/octet-stream');
    const body = bytesToClient(context, response, { channel, model, upstreamModel, usage: () => passBytes.usage() });
    return { kind: 'success', result: { kind: 'stream', status: response.statusCode, headers: { 'content-type': contentType }, body } };
  }
  const isSse = String(response.headers['content-type'] ?? '').includes('text/event-stream');
  if (!call.stream || !isSse || !hop.stream) {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (call.signal.aborted) throw error;
      const kind = classifyTransportError(error);
      return fail(kind, kind === 'silent' ? upstreamTimeout(channel.name, 'response body') : upstreamUnreachable(channel.name, error), response.statusCode);
    }
    const answer = hop.whole(text, channel);
    settled(model);
    note(response.statusCode, 'ok', null);
    // Recorded right after the answer is written (the write happens in this same turn of the event loop,
    // setImmediate at its end): the charge is never skipped, and it no longer delays the client.
    setImmediate(recordCall, deps, call, { model, status: response.statusCode, usage: answer.usage, channelId: channel.id, upstreamModel, ttftMs: null, error: null });
    return { kind: 'success', result: { kind: 'buffer', status: response.statusCode, headers: { 'content-type': answer.contentType }, body: answer.body } };
  }

  const converter = hop.stream(channel);
  const pump = createSsePump(response.chunks(), converter, (error) => deps.logger.warn({ requestId: call.requestId, channel: channel.name, err: error.message }, 'skipped a malformed upstream event'));
  let first: { text: string; done: boolean } | null;
  try {
    first = await firstOutput(pump, channel.timeouts.firstTokenMs ?? DEFAULT_TIMEOUTS.firstTokenMs, call.signal);
  } catch (error) {
    await pump.stop();
    if (call.signal.aborted) throw error;
    if (error instanceof FirstTokenTimeout) return fail('silent', upstreamTimeout(channel.name, 'first token'), 200);
    return fail(classifyTransportError(error), upstreamUnreachable(channel.name, error), 200);
  }
  if (first === null) {
    return fail('transient', new GatewayError(502, 'upstream_error', 'GW_ERR_EMPTY_STREAM', { message: `The upstream channel '${channel.name}' ended its stream without any event.`, code: 'upstream_empty_stream' }), 200);
  }
  settled(model);
  note(200, 'ok', null);
  const ttftMs = performance.now() - call.startedAt;
  const body = streamToClient(context, { channel, model, upstreamModel, converter, pump, first, ttftMs });
  return { kind: 'success', result: { kind: 'stream', status: 200, headers: SSE_HEADERS, body } };
}

class FirstTokenTimeout extends Error {}

/** Reads until the converter has something for the client, or the stream ends (null when it said nothing). */
async function firstOutput(pump: SsePump, timeoutMs: number, signal: AbortSignal): Promise<{ text: string; done: boolean } | null> {
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

interface CommittedStream {
  channel: RoutedChannel;
  model: string;
  upstreamModel: string;
  converter: StreamConverter;
  pump: SsePump;
  first: { text: string; done: boolean };
  ttftMs: number;
}

async function* streamToClient(context: AttemptContext, committed: CommittedStream): AsyncGenerator<string> {
  const { deps, call } = context;
  let segment = committed;
  const usages: Usage[] = [];
  let segmentCounted = false;
  let error: string | null = null;
  let errorCode: string | null = null;
  let finished = false;
  try {
    let pending: { text: string; done: boolean } | null = segment.first;
    for (;;) {
      try {
        if (pending?.text) yield pending.text;
        let done = pending?.done ?? false;
        pending = null;
        while (!done) {
          const step = await segment.pump.next();
          if (step.text) yield step.text;
          done = step.done;
        }
        const tail = segment.converter.end();
        if (tail) yield tail;
        finished = true;
        break;
      } catch (cause) {
        if (call.signal.aborted) break;
        const failure = streamFailure(segment.channel, cause);
        deps.breakers.recordFailure(segment.channel.id);
        deps.logger.warn({ requestId: call.requestId, channel: segment.channel.name, err: failure.message }, 'upstream stream failed after the first byte');
        usages.push(segment.converter.usage());
        segmentCounted = true;
        // Another route may continue the answer from what the client already has.
        const next = await continueElsewhere(context, segment);
        if (next) {
          segment = next;
          segmentCounted = false;
          pending = next.first;
          continue;
        }
        // No route can: the client gets an error event in its own format, never a normal finish.
        error = failure.message;
        errorCode = failure.gatewayCode;
        yield segment.converter.failure(failure);
        finished = true;
        break;
      }
    }
  } finally {
    if (!finished) {
      await segment.pump.stop();
      error ??= 'client disconnected before the stream ended';
      errorCode ??= 'GW_ERR_CLIENT_GONE';
    }
    if (!segmentCounted) usages.push(segment.converter.usage());
    // Only what was delivered is charged: reported usage, or a count of the delivered text, per segment.
    recordCall(deps, call, { model: segment.model, status: 200, usage: addUsages(usages), channelId: segment.channel.id, upstreamModel: segment.upstreamModel, ttftMs: committed.ttftMs, error, errorCode });
  }
}

function streamFailure(channel: RoutedChannel, cause: unknown): GatewayError {
  return classifyTransportError(cause) === 'silent'
    ? upstreamTimeout(channel.name, 'idle stream')
    : new GatewayError(502, 'upstream_error', 'GW_ERR_STREAM_CUT', { message: `The upstream channel '${channel.name}' stream failed midway: ${(cause as Error).message}`, code: 'upstream_stream_failed' });
}

/**
 * Continues a failed stream on a channel that accepts an assistant prefill: the same model's other
 * channels first, then the fallback models'. Text-only answers only: a half-delivered tool call cannot
 * be resumed. Returns null when no route could continue; the caller then reports the original failure.
 */
async function continueElsewhere(context: AttemptContext, failed: CommittedStream): Promise<CommittedStream | null> {
  const { deps } = context;
  const delivered = failed.converter.delivered();
  if (!context.hop.continuation || delivered.toolCalls || delivered.text.length === 0) return null;
  const hop = context.hop.continuation(delivered.text);
  const startIndex = Math.max(0, context.routes.findIndex((route) => route.model === failed.model));
  for (const route of context.routes.slice(startIndex)) {
    for (const channel of route.channels) {
      if (channel.id === failed.channel.id || !channel.supportsPrefill || deps.breakers.isOpen(channel.id)) continue;
      const opened = await openContinuation(context, hop, channel, route.model);
      if (opened) return opened;
    }
  }
  return null;
}

async function openContinuation(context: AttemptContext, hop: RelayHop, channel: RoutedChannel, model: string): Promise<CommittedStream | null> {
  const { deps, call } = context;
  const started = performance.now();
  const upstreamModel = upstreamModelFor(channel, model);
  const note = (outcome: string, status: number | null, error: string | null) =>
    call.meter.attempts.push({ model, channel: channel.name, status, outcome, error, ms: Math.round(performance.now() - started) });
  try {
    const response = await sendUpstream(deps.agents, {
      channel,
      ...await hop.request(channel, upstreamModel),
      signal: call.signal,
      headersTimeoutMs: channel.timeouts.headersMs ?? DEFAULT_TIMEOUTS.streamHeadersMs,
      idleTimeoutMs: channel.timeouts.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
    });
    if (response.statusCode >= 400 || !String(response.headers['content-type'] ?? '').includes('text/event-stream')) {
      const text = await response.text().catch(() => '');
      note('continuation refused', response.statusCode, text.slice(0, 300));
      return null;
    }
    const converter = hop.stream!(channel);
    const pump = createSsePump(response.chunks(), converter, (error) => deps.logger.warn({ requestId: call.requestId, channel: channel.name, err: error.message }, 'skipped a malformed upstream event'));
    const first = await firstOutput(pump, channel.timeouts.firstTokenMs ?? DEFAULT_TIMEOUTS.firstTokenMs, call.signal).catch(async (error: unknown) => {
      await pump.stop();
      throw error;
    });
    if (!first) {
      note('continuation empty', 200, null);
      return null;
    }
    note('continued', 200, null);
    return { channel, model, upstreamModel, converter, pump, first, ttftMs: 0 };
  } catch (error) {
    if (call.signal.aborted) throw error;
    note('continuation failed', null, (error as Error).message);
    return null;
  }
}

/** Binary answers (audio): bytes pass through as they arrive; a cut ends the response early. */
async function* bytesToClient(context: AttemptContext, response: UpstreamResponse, meta: { channel: RoutedChannel; model: string; upstreamModel: string; usage: () => Usage }): AsyncGenerator<Buffer> {
  const { deps, call } = context;
  let error: string | null = null;
  try {
    for await (const chunk of response.chunks()) yield chunk;
  } catch (cause) {
    error = `upstream failed midway: ${(cause as Error).message}`;
    deps.logger.warn({ requestId: call.requestId, channel: meta.channel.name, err: error }, 'binary upstream answer failed midway');
    throw cause;
  } finally {
    recordCall(deps, call, { model: meta.model, status: error ? 502 : 200, usage: meta.usage(), channelId: meta.channel.id, upstreamModel: meta.upstreamModel, ttftMs: null, error });
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}
