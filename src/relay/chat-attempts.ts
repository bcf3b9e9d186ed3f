// The attempt loop: channels in order, each model of the fallback chain in turn, with the retry
// discipline of attempt-policy.ts. Until the first byte reaches the client every failure can still be
// hidden by another route; a stream's headers are held until its first event for exactly that reason.
import { Readable } from 'node:stream';
import { GatewayError, upstreamTimeout, upstreamUnreachable } from '../gateway-errors.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { sendUpstream, type UpstreamResponse } from '../upstream/send-upstream.ts';
import type { ChatHop, StreamConverter } from './chat-hop.ts';
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

export async function runChatAttempts(deps: RelayDeps, call: RelayCall, hop: ChatHop, routes: ModelRoute[]): Promise<RelayResult> {
  let lastError: GatewayError | null = null;
  let attemptsMade = 0;
  models: for (const route of routes) {
    for (const channel of withoutOpenCircuits(deps, route.channels)) {
      for (let sameChannelTry = 0; sameChannelTry < 2; sameChannelTry++) {
        if (attemptsMade++ >= RETRY_POLICY.maxAttempts) break models;
        const outcome = await attemptOnce(deps, call, hop, channel, route.model);
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

async function attemptOnce(deps: RelayDeps, call: RelayCall, hop: ChatHop, channel: RoutedChannel, model: string): Promise<AttemptOutcome> {
  const started = performance.now();
  const upstreamModel = upstreamModelFor(channel, model);
  const note = (status: number | null, outcome: string, error: string | null) =>
    call.meter.attempts.push({ model, channel: channel.name, status, outcome, error, ms: Math.round(performance.now() - started) });
  const fail = (failure: FailureKind, error: GatewayError, status: number | null, retryAfter: number | null = null): AttemptOutcome => {
    note(status, failure, error.message);
    if (failure !== 'final' && failure !== 'context-length') deps.breakers.recordFailure(channel.id);
    deps.logger.warn({ requestId: call.requestId, channel: channel.name, model, failure, status, err: error.message }, 'upstream attempt failed');
    return { kind: 'failure', failure, error, retryAfterMs: retryAfter };
  };

  let response: UpstreamResponse;
  try {
    response = await sendUpstream(deps.agent, {
      channel,
      ...hop.request(channel, upstreamModel),
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
  const isSse = String(response.headers['content-type'] ?? '').includes('text/event-stream');
  if (!call.stream || !isSse) {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      if (call.signal.aborted) throw error;
      const kind = classifyTransportError(error);
      return fail(kind, kind === 'silent' ? upstreamTimeout(channel.name, 'response body') : upstreamUnreachable(channel.name, error), response.statusCode);
    }
    const answer = hop.whole(text);
    settled(model);
    note(response.statusCode, 'ok', null);
    recordCall(deps, call, { model, status: response.statusCode, usage: answer.usage, channelId: channel.id, upstreamModel, ttftMs: null, error: null });
    return { kind: 'success', result: { kind: 'buffer', status: response.statusCode, headers: { 'content-type': answer.contentType }, body: answer.body } };
  }

  const converter = hop.stream();
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
  const body = Readable.from(streamToClient(deps, call, { channel, model, upstreamModel, converter, pump, first, ttftMs }), { objectMode: false });
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

async function* streamToClient(deps: RelayDeps, call: RelayCall, stream: CommittedStream): AsyncGenerator<string> {
  const { converter, pump, channel } = stream;
  let error: string | null = null;
  let finished = false;
  try {
    yield stream.first.text;
    let done = stream.first.done;
    while (!done) {
      const step = await pump.next();
      if (step.text) yield step.text;
      done = step.done;
    }
    const tail = converter.end();
    if (tail) yield tail;
    finished = true;
  } catch (cause) {
    if (!call.signal.aborted) {
      // Past the first byte no other route can take over invisibly: the client gets an error event in its
      // own format, never a normal finish.
      const failure = classifyTransportError(cause) === 'silent' ? upstreamTimeout(channel.name, 'idle stream') : new GatewayError(502, 'upstream_error', 'GW_ERR_STREAM_CUT', { message: `The upstream channel '${channel.name}' stream failed midway: ${(cause as Error).message}`, code: 'upstream_stream_failed' });
      error = failure.message;
      deps.breakers.recordFailure(channel.id);
      deps.logger.warn({ requestId: call.requestId, channel: channel.name, err: error }, 'upstream stream failed after the first byte');
      yield converter.failure(failure);
      finished = true;
    }
  } finally {
    if (!finished) {
      await pump.stop();
      error ??= 'client disconnected before the stream ended';
    }
    // Only what was delivered is charged: reported usage, or a count of the delivered text.
    recordCall(deps, call, { model: stream.model, status: 200, usage: converter.usage(), channelId: channel.id, upstreamModel: stream.upstreamModel, ttftMs: stream.ttftMs, error });
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
