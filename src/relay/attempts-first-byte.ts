// One attempt on one route, up to the moment it has something for the client: a whole answer, a binary
// answer's headers, or a stream's first event. Nothing is sent, charged or logged here: the attempt comes
// back as an outcome carrying its immutable record, "ready" ones to be committed (it won) or discarded (a
// hedge beat it) by the loop, which logs the records. A stream's headers are held
// until its first event, so a slow first token or an empty stream can still fail over invisibly.
import { GatewayError, upstreamCredentialsRefused, upstreamTimeout, upstreamUnreachable, gatewayError } from '../gateway-errors.ts';
import type { GatewayErrorCode } from '../gateway-error-codes.ts';
import { UpstreamCredentialError } from '../upstream/upstream-credential-error.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { sendUpstream, type UpstreamResponse } from '../upstream/send-upstream.ts';
import type { RelayHop, UpstreamCallShape, WholeAnswer } from './relay-hop.ts';
import { classifyTransportError, classifyUpstreamStatus, DEFAULT_TIMEOUTS, retryAfterMs, type FailureKind } from './attempt-policy.ts';
import { recordCall, wholeCostMicros } from './record-call.ts';
import { attemptRecord } from './attempt-log.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { AttemptRecord, RelayCall, RelayResult } from './relay-types.ts';
import { upstreamModelFor } from './resolve-candidates.ts';
import { createUpstreamPump, isUpstreamStream } from './upstream-stream-framing.ts';
import { firstOutput, FirstTokenTimeout, malformedEventLogger, type AttemptContext } from './attempt-first-output.ts';
import { bytesToClient, RecordedCost, streamToClient, type CommittedStream } from './attempts-stream.ts';
import { AttemptUsage } from './attempt-usage.ts';

export type { AttemptContext } from './attempt-first-output.ts';


export type AttemptOutcome =
  | { kind: 'ready'; record: AttemptRecord; commit(): RelayResult; discard(): Promise<void> }
  | { kind: 'failure'; record: AttemptRecord; failure: FailureKind; error: GatewayError; retryAfterMs: number | null }
  /** Stopped by the loop (a hedge won elsewhere): says nothing about the channel. No record when it never started. */
  | { kind: 'cancelled'; record?: AttemptRecord };

const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' };

/**
 * `signal` is the call's own, or (when hedging) one the loop can abort for this attempt alone. A client
 * that went away makes this throw; an attempt cancelled by the loop comes back `cancelled`.
 */
export async function attemptOnce(context: AttemptContext, channel: RoutedChannel, model: string, signal: AbortSignal): Promise<AttemptOutcome> {
  const { deps, call, hop } = context;
  const started = performance.now();
  const upstreamModel = upstreamModelFor(channel, model);
  // What the failure paths need, in one object instead of four closures over this function's scope.
  const scope: AttemptScope = { deps, call, channel, model, started, signal };
  let shape: UpstreamCallShape;
  try {
    // Passthrough hops build the request synchronously: no await (a microtask turn) unless it is a promise.
    const built = hop.request(channel, upstreamModel);
    shape = built instanceof Promise ? await built : built;
  } catch (error) {
    // The request cannot be written for this channel (a feature its format cannot express): the client's to fix.
    if (error instanceof GatewayError) return fail(scope, 'final', error, null);
    throw error;
  }
  let response: UpstreamResponse;
  try {
    // The shape's fields listed, not spread: V8 defines each property after a spread by a runtime call.
    response = await sendUpstream(deps.agents, {
      channel,
      path: shape.path,
      headers: shape.headers,
      body: shape.body,
      signal,
      headersTimeoutMs: channel.timeouts.headersMs ?? (call.stream ? DEFAULT_TIMEOUTS.streamHeadersMs : DEFAULT_TIMEOUTS.wholeHeadersMs),
      idleTimeoutMs: channel.timeouts.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
    });
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

  if (hop.passBytes) return readyBytes(context, response, hop.passBytes, channel, model, upstreamModel, recordOf(scope, response.statusCode, 'ok', null));
  const isStream = isUpstreamStream(channel, response.headers['content-type']);
  if (!call.stream || !isStream || !hop.stream) {
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      return transportFailure(scope, error, 'response body', response.statusCode);
    }
    const answer = hop.whole(text, channel, shape, new AttemptUsage(call, shape.outputLimit));
    return new ReadyWholeAnswer(recordOf(scope, response.statusCode, 'ok', null), deps, call, channel, model, upstreamModel, response.statusCode, answer);
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
  return readyStream(context, { channel, model, upstreamModel, converter, pump, first, ttftMs: 0 }, recordOf(scope, response.statusCode, 'ok', null));
}

interface AttemptScope {
  deps: RelayDeps;
  call: RelayCall;
  channel: RoutedChannel;
  model: string;
  started: number;
  signal: AbortSignal;
}

function recordOf(scope: AttemptScope, status: number | null, outcome: string, error: string | null, code?: GatewayErrorCode): AttemptRecord {
  return attemptRecord(scope.model, scope.channel.name, status, outcome, error, scope.started, code);
}

function fail(scope: AttemptScope, failure: FailureKind, error: GatewayError, status: number | null, retryAfter: number | null = null): AttemptOutcome {
  scope.deps.logger.warn({ requestId: scope.call.requestId, channel: scope.channel.name, model: scope.model, failure, status, code: error.gatewayCode, err: error.message }, 'upstream attempt failed');
  return { kind: 'failure', record: recordOf(scope, status, failure, error.message, error.gatewayCode), failure, error, retryAfterMs: retryAfter };
}

function stopped(scope: AttemptScope, error: unknown): AttemptOutcome {
  if (scope.call.signal.aborted) throw error;
  return { kind: 'cancelled', record: recordOf(scope, null, 'cancelled', null) };
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
function readyStream(context: AttemptContext, committed: CommittedStream, record: AttemptRecord): AttemptOutcome {
  return {
    kind: 'ready',
    record,
    commit() {
      committed.ttftMs = performance.now() - context.call.startedAt;
      const cost = new RecordedCost();
      const body = streamToClient(context, committed, cost);
      return { kind: 'stream', status: 200, headers: SSE_HEADERS, body, costMicros: cost.read };
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

  constructor(record: AttemptRecord, deps: RelayDeps, call: RelayCall, channel: RoutedChannel, model: string, upstreamModel: string, status: number, answer: WholeAnswer) {
    this.record = record;
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
    setImmediate(recordCall, deps, call, { model, status, usage: answer.usage, channelId: this.channel.id, upstreamModel: this.upstreamModel, ttftMs: null, error: null });
    return { kind: 'buffer', status, headers: { 'content-type': answer.contentType }, body: answer.body, costMicros: constantCost(cost) };
  }

  async discard(): Promise<void> {}
}

function constantCost(cost: number): () => number {
  return () => cost;
}

/** A binary answer, ready to commit. Outside attemptOnce: closures made there give every call a context for its locals. */
function readyBytes(context: AttemptContext, response: UpstreamResponse, passBytes: NonNullable<RelayHop['passBytes']>, channel: RoutedChannel, model: string, upstreamModel: string, record: AttemptRecord): AttemptOutcome {
  const contentType = String(response.headers['content-type'] ?? 'application/octet-stream');
  return {
    kind: 'ready',
    record,
    commit() {
      // A streamed answer's cost is known once its generator has recorded it, when the stream ends.
      const cost = new RecordedCost();
      const body = bytesToClient(context, response, { channel, model, upstreamModel, usage: () => passBytes.usage() }, cost);
      return { kind: 'stream', status: response.statusCode, headers: { 'content-type': contentType }, body, costMicros: cost.read };
    },
    discard: async () => response.abort(),
  };
}
