// One attempt on one route, up to the moment it has something for the client: a whole answer, a binary
// answer's headers, or a stream's first event. Nothing is sent, charged or logged here: the attempt comes
// back as an outcome carrying its immutable record, "ready" ones to be committed (it won) or discarded (a
// hedge beat it) by the loop, which logs the records. A stream's headers are held
// until its first event, so a slow first token or an empty stream can still fail over invisibly.
import { GatewayError, upstreamCredentialsRefused, upstreamTimeout, upstreamUnreachable, gatewayError } from '../gateway-errors.ts';
import { UpstreamCredentialError } from '../upstream/upstream-credential-error.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { sendUpstream, type UpstreamRequest, type UpstreamResponse } from '../upstream/send-upstream.ts';
import type { RelayHop, UpstreamCallShape, WholeAnswer } from './relay-hop.ts';
import { classifyTransportError, classifyUpstreamStatus, DEFAULT_TIMEOUTS, retryAfterMs, type FailureKind } from './attempt-policy.ts';
import { recordCall, wholeCostMicros } from './record-call.ts';
import { traceAnswer } from './call-tracing.ts';
import { attemptRecord, attemptRecordAt } from './attempt-log.ts';
import { overheadMs } from './upstream-wait.ts';
import type { AttemptTrace } from '../telemetry/call-trace.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { AttemptRecord, RelayCall, RelayResult } from './relay-types.ts';
import { upstreamModelFor } from './resolve-candidates.ts';
import { createUpstreamPump, isUpstreamStream } from './upstream-stream-framing.ts';
import { firstOutput, FirstTokenTimeout, malformedEventLogger, type AttemptContext } from './attempt-first-output.ts';
import { bytesToClient, RecordedCost, streamToClient, type CommittedStream } from './attempts-stream.ts';
import { AttemptUsage } from './attempt-usage.ts';

export type { AttemptContext } from './attempt-first-output.ts';


/**
 * `sentAt` and `doneAt` (performance.now()) bound the attempt's wait on its upstream: from sending the request
 * to its whole answer, a stream's first event, or the failure. The loop adds them up into the call's
 * upstream wait (upstream-wait.ts); absent when no request went out (or a test's fake dispatcher).
 */
export type AttemptOutcome =
  | { kind: 'ready'; record: AttemptRecord; sentAt?: number; doneAt?: number; commit(): RelayResult; discard(): Promise<void> }
  | { kind: 'failure'; record: AttemptRecord; failure: FailureKind; error: GatewayError; retryAfterMs: number | null; sentAt?: number; doneAt?: number }
  /** Stopped by the loop (a hedge won elsewhere): says nothing about the channel. No record when it never started. */
  | { kind: 'cancelled'; record?: AttemptRecord };

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

/**
 * `signal` is the call's own, or (when hedging) one the loop can abort for this attempt alone. A client
 * that went away makes this throw; an attempt cancelled by the loop comes back `cancelled`.
 */
export async function attemptOnce(context: AttemptContext, channel: RoutedChannel, model: string, signal: AbortSignal, trace?: AttemptTrace | null): Promise<AttemptOutcome> {
  const { deps, call, hop } = context;
  const upstreamModel = upstreamModelFor(channel, model);
  let shape: UpstreamCallShape;
  try {
    // Passthrough hops build the request synchronously: no await (a microtask turn) unless it is a promise.
    const built = hop.request(channel, upstreamModel);
    shape = built instanceof Promise ? await built : built;
  } catch (error) {
    // The request cannot be written for this channel (a feature its format cannot express): the client's to fix.
    if (error instanceof GatewayError) return fail({ deps, call, channel, model, started: performance.now(), signal }, 'final', error, null);
    throw error;
  }
  // The attempt's time (its record, the upstream latency metric, the wait the overhead leaves out) starts
  // when the request goes out: writing it (a translation) was the gateway's own work.
  const started = performance.now();
  // What the failure paths need, in one object instead of four closures over this function's scope.
  const scope: AttemptScope = { deps, call, channel, model, started, signal };
  let response: UpstreamResponse;
  try {
    // The shape's fields listed, not spread: V8 defines each property after a spread by a runtime call.
    const request: UpstreamRequest = {
      channel,
      path: shape.path,
      headers: shape.headers,
      body: shape.body,
      signal,
      headersTimeoutMs: channel.timeouts.headersMs ?? (call.stream ? DEFAULT_TIMEOUTS.streamHeadersMs : DEFAULT_TIMEOUTS.wholeHeadersMs),
      idleTimeoutMs: channel.timeouts.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
      traceparent: trace ? trace.traceparent : undefined,
    };
    // A WebSocket turn on a channel that speaks the mode: its frames read as this POST's SSE answer would.
    response = await (shape.socket === undefined ? sendUpstream(deps.agents, request) : shape.socket.send(request));
  } catch (error) {
    return transportFailure(scope, error, 'response headers', null);
  }
  deps.metrics.upstreamLatency.observe({ channel: channel.name }, (performance.now() - started) / 1000);

  if (response.statusCode >= 400) {
    const text = await response.text().catch(() => '');
    if (signal.aborted) return stopped(scope, signal.reason);
    const error = hop.error(channel, response.statusCode, text, response.headers);
    const refusal = channel.chatFormat.refusalOf(response.statusCode, text);
    return fail(scope, classifyUpstreamStatus(response.statusCode, error, refusal), error, response.statusCode, retryAfterMs(response.headers['retry-after']));
  }

  if (hop.passBytes) {
    const headersAt = performance.now();
    return readyBytes(context, response, hop.passBytes, channel, model, upstreamModel, recordAt(scope, response.statusCode, headersAt), started, headersAt);
  }
  const isStream = isUpstreamStream(channel, response.headers['content-type']);
  if (!call.stream || !isStream || !hop.stream) {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      return transportFailure(scope, error, 'response body', response.statusCode);
    }
    // The wait on the upstream ends with its body; converting it for the client is the gateway's own time.
    const bodyAt = performance.now();
    const answer = hop.whole(text, channel, shape, new AttemptUsage(call, shape.outputLimit));
    const readyAt = performance.now();
    return new ReadyWholeAnswer(recordAt(scope, response.statusCode, readyAt), deps, call, channel, model, upstreamModel, response.statusCode, answer, started, bodyAt, readyAt);
  }

  const converter = hop.stream(channel, shape, new AttemptUsage(call, shape.outputLimit));
  const pump = createUpstreamPump(channel, response.chunks(), converter, malformedEventLogger(deps, call, channel));
  let first: { text: string; done: boolean } | null;
  try {
    first = await firstOutput(pump, channel.timeouts.firstTokenMs ?? DEFAULT_TIMEOUTS.firstTokenMs, signal);
  } catch (error) {
    await pump.stop();
    if (signal.aborted) return stopped(scope, error);
    if (error instanceof FirstTokenTimeout) return fail(scope, 'silent', upstreamTimeout(channel.name, 'first token'), 200);
    return transportFailure(scope, error, 'first token', 200);
  }
  if (first === null) {
    return fail(scope, 'transient', gatewayError('GW_ERR_EMPTY_STREAM', { message: `The upstream channel '${channel.name}' ended its stream without any event.`, code: 'upstream_empty_stream' }), 200);
  }
  const firstAt = performance.now();
  return readyStream(context, { channel, model, upstreamModel, converter, pump, first, ttftMs: 0, overheadMs: 0 }, recordAt(scope, response.statusCode, firstAt), started, firstAt);
}

interface AttemptScope {
  deps: RelayDeps;
  call: RelayCall;
  channel: RoutedChannel;
  model: string;
  started: number;
  signal: AbortSignal;
}

/** A successful attempt's record, ended at `endedAt` (a time the attempt took anyway). */
function recordAt(scope: AttemptScope, status: number, endedAt: number): AttemptRecord {
  return attemptRecordAt(scope.model, scope.channel.name, status, 'ok', null, scope.started, endedAt);
}

function fail(scope: AttemptScope, failure: FailureKind, error: GatewayError, status: number | null, retryAfter: number | null = null): AttemptOutcome {
  scope.deps.logger.warn({ requestId: scope.call.requestId, channel: scope.channel.name, model: scope.model, failure, status, code: error.gatewayCode, err: error.message }, 'upstream attempt failed');
  const doneAt = performance.now();
  const record = attemptRecordAt(scope.model, scope.channel.name, status, failure, error.message, scope.started, doneAt, error.gatewayCode);
  return { kind: 'failure', record, failure, error, retryAfterMs: retryAfter, sentAt: scope.started, doneAt };
}

function stopped(scope: AttemptScope, error: unknown): AttemptOutcome {
  if (scope.call.signal.aborted) throw error;
  return { kind: 'cancelled', record: attemptRecord(scope.model, scope.channel.name, null, 'cancelled', null, scope.started) };
}

function transportFailure(scope: AttemptScope, error: unknown, what: string, status: number | null): AttemptOutcome {
  const { channel } = scope;
  if (scope.signal.aborted) return stopped(scope, error);
  // A token endpoint refused the channel's credential (Vertex, Entra ID): like an upstream 401.
  if (error instanceof UpstreamCredentialError) {
    scope.deps.logger.warn({ requestId: scope.call.requestId, channel: channel.name, detail: error.message }, 'the channel credential was refused by its token endpoint');
    return fail(scope, 'credentials', upstreamCredentialsRefused(channel.name, error.status ?? 401, error.upstreamCode), error.status);
  }
  const kind = classifyTransportError(error);
  return fail(scope, kind, kind === 'silent' ? upstreamTimeout(channel.name, what) : upstreamUnreachable(channel.name, error), status);
}

/**
 * A stream with its first output, ready to commit. Built outside attemptOnce on purpose: a closure made
 * there would keep the attempt's whole scope (the request shape, the response, the helpers) alive for
 * as long as the stream is open.
 */
function readyStream(context: AttemptContext, committed: CommittedStream, record: AttemptRecord, sentAt: number, doneAt: number): AttemptOutcome {
  return {
    kind: 'ready',
    record,
    sentAt,
    doneAt,
    commit() {
      const call = context.call;
      const committedAt = performance.now();
      committed.ttftMs = committedAt - call.startedAt;
      // A stream's own time is what it took until its first event: the rest is the upstream's streaming.
      committed.overheadMs = overheadMs(call.startedAt, committedAt, call.meter.upstreamWaitMs);
      const cost = new RecordedCost();
      const body = streamToClient(context, committed, cost);
      return { kind: 'stream', status: 200, headers: SSE_HEADERS, body, costMicros: cost.read, overheadMs: committed.overheadMs };
    },
    discard: () => committed.pump.stop(),
  };
}

/**
 * A whole answer, ready to commit. An object rather than commit/discard closures made in attemptOnce: those
 * kept the attempt's whole scope in a context object per call (issue 16: the relay's per-call garbage).
 */
class ReadyWholeAnswer {
  readonly kind = 'ready' as const;
  readonly record: AttemptRecord;
  private readonly deps: RelayDeps;
  private readonly call: RelayCall;
  private readonly channel: RoutedChannel;
  private readonly model: string;
  private readonly upstreamModel: string;
  private readonly status: number;
  private readonly answer: WholeAnswer;
  readonly sentAt: number;
  readonly doneAt: number;
  /** When the answer was converted for the client: the end of the gateway's own time. */
  private readonly readyAt: number;

  constructor(record: AttemptRecord, deps: RelayDeps, call: RelayCall, channel: RoutedChannel, model: string, upstreamModel: string, status: number, answer: WholeAnswer, sentAt: number, doneAt: number, readyAt: number) {
    this.record = record;
    this.sentAt = sentAt;
    this.doneAt = doneAt;
    this.readyAt = readyAt;
    this.deps = deps;
    this.call = call;
    this.channel = channel;
    this.model = model;
    this.upstreamModel = upstreamModel;
    this.status = status;
    this.answer = answer;
  }

  commit(): RelayResult {
    const { deps, call, model, answer, status } = this;
    // Recorded right after the answer is written (the write happens in this same turn of the event loop,
    // setImmediate at its end): the charge is never skipped, and it no longer delays the client. Its cost
    // (for the x-gateway-cost header) is the recorder's computation, made now from the same outcome.
    // The cost is computed before the record is scheduled: nothing after scheduling can throw, so the
    // call is never also recorded as failed by relayEndpoint's catch.
    const cost = wholeCostMicros(deps, call, model, answer.usage);
    const overhead = overheadMs(call.startedAt, this.readyAt, call.meter.upstreamWaitMs);
    if (call.trace && answer.reading) traceAnswer(call.trace, answer.reading);
    setImmediate(recordCall, deps, call, { model, status, usage: answer.usage, channelId: this.channel.id, upstreamModel: this.upstreamModel, ttftMs: null, error: null, overheadMs: overhead });
    return { kind: 'buffer', status, headers: { 'content-type': answer.contentType }, body: answer.body, costMicros: constantCost(cost), overheadMs: overhead };
  }

  async discard(): Promise<void> {}
}

function constantCost(cost: number): () => number {
  return () => cost;
}

/** A binary answer, ready to commit. Outside attemptOnce: closures made there give every call a context for its locals. */
function readyBytes(context: AttemptContext, response: UpstreamResponse, passBytes: NonNullable<RelayHop['passBytes']>, channel: RoutedChannel, model: string, upstreamModel: string, record: AttemptRecord, sentAt: number, headersAt: number): AttemptOutcome {
  const contentType = String(response.headers['content-type'] ?? 'application/octet-stream');
  return {
    kind: 'ready',
    record,
    sentAt,
    doneAt: headersAt,
    commit() {
      const call = context.call;
      // The bytes pass through as they come: the gateway's own time ends with the upstream's headers.
      const overhead = overheadMs(call.startedAt, headersAt, call.meter.upstreamWaitMs);
      // A streamed answer's cost is known once its generator has recorded it, when the stream ends.
      const cost = new RecordedCost();
      const body = bytesToClient(context, response, { channel, model, upstreamModel, usage: () => passBytes.usage(), overheadMs: overhead }, cost);
      return { kind: 'stream', status: response.statusCode, headers: { 'content-type': contentType }, body, costMicros: cost.read, overheadMs: overhead };
    },
    discard: async () => response.abort(),
  };
}
