// A committed answer on its way to the client: a stream (continued elsewhere if it breaks, see
// attempts-continuation.ts) or binary bytes. Records the call once, in the generator's finally (the one
// place a committed stream is recorded), charging only what was delivered, and hands the charge back.
import { type GatewayError, upstreamTimeout, gatewayError } from '../gateway-errors.ts';
import type { GatewayErrorCode } from '../gateway-error-codes.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import type { UpstreamResponse } from '../upstream/send-upstream.ts';
import type { StreamConverter } from './relay-hop.ts';
import { emptyUsage, type Usage } from '../metering/usage.ts';
import { addUsages } from '../metering/resolve-usage.ts';
import { classifyTransportError } from './attempt-policy.ts';
import { recordCall } from './record-call.ts';
import { traceAnswer } from './call-tracing.ts';
import { attemptRecord, logAttempt } from './attempt-log.ts';
import type { AttemptContext } from './attempt-first-output.ts';
import { continueElsewhere } from './attempts-continuation.ts';
import type { CommittedStream } from './committed-stream.ts';
import { estimateTextTokens } from '../metering/estimate-tokens.ts';

export type { CommittedStream } from './committed-stream.ts';

/** Receives what recording the answer charged, for the x-gateway-cost trailer. */
interface Settled {
  settle(costMicros: number): void;
}

/**
 * A committed answer's cost, known once its generator has recorded it (when the stream ends): written
 * once, by the one attempt that is committed, and read by the response's `costMicros`. Its own small
 * object, so an open stream does not keep the whole attempt's scope alive through a closure.
 */
export class RecordedCost implements Settled {
  private value: number | null = null;
  settle(costMicros: number): void {
    this.value = costMicros;
  }
  readonly read = (): number | null => this.value;
}

export async function* streamToClient(context: AttemptContext, committed: CommittedStream, settled: Settled): AsyncGenerator<string> {
  const { deps, call } = context;
  let segment = committed;
  const usages: Usage[] = [];
  let segmentCounted = false;
  let error: string | null = null;
  let errorCode: GatewayErrorCode | null = null;
  let finished = false;
  /** The failure that broke the answer, reported if nothing can mend it. */
  let broken: { failure: GatewayError; converter: StreamConverter } | null = null;
  // Counted until recorded, so a shutdown waits for this record (usage-recorder.ts).
  deps.recorder.streamOpened();
  try {
    let pending: { text: string; done: boolean } | null = segment.first;
    segment.first = null;
    for (;;) {
      try {
        let out = pending?.text ? forClient(segment, pending.text) : '';
        let done = pending?.done ?? false;
        pending = null;
        if (out) yield out;
        while (!done && !segment.replay?.filter.diverged) {
          // `out` and `pending` are emptied before the wait: a suspended generator keeps every local, and an
          // idle stream would otherwise hold the last text it sent for as long as the upstream is silent.
          out = '';
          pending = await segment.pump.next();
          out = pending.text ? forClient(segment, pending.text) : '';
          done = pending.done;
          pending = null;
          if (out) yield out;
        }
        if (!segment.replay?.filter.diverged) {
          out = forClient(segment, segment.converter.end());
          if (out) yield out;
        }
        if (segment.replay && !segment.replay.filter.caughtUp) {
          // The restarted answer never repeated what the client has: none of it is sent or charged.
          await segment.pump.stop();
          segmentCounted = true;
          deps.logger.warn({ requestId: call.requestId, channel: segment.channel.name }, 'the restarted answer differed from what the client already had');
          logAttempt(call.meter, attemptRecord(segment.model, segment.channel.name, 200, 'restart diverged', null, performance.now()));
          error = `${broken!.failure.message} (the answer restarted on '${segment.channel.name}' differed from what had been sent)`;
          errorCode = broken!.failure.gatewayCode;
          yield broken!.converter.failure(broken!.failure);
          finished = true;
          break;
        }
        finished = true;
        break;
      } catch (cause) {
        if (call.signal.aborted) break;
        const failure = streamFailure(segment.channel, cause);
        call.trace?.servingBroke(failure);
        deps.breakers.recordFailure(segment.channel.id);
        deps.logger.warn({ requestId: call.requestId, channel: segment.channel.name, err: failure.message }, 'upstream stream failed after the first byte');
        usages.push(segmentUsage(segment));
        segmentCounted = true;
        // The original failure is the one reported; a later segment's breaking is only logged.
        broken ??= { failure, converter: segment.converter };
        // Another route may continue the answer from what the client already has.
        const next = await continueElsewhere(context, segment);
        if (next) {
          segment = next;
          segmentCounted = false;
          pending = next.first;
          next.first = null;
          continue;
        }
        // No route can: the client gets an error event in its own format, never a normal finish.
        error = broken.failure.message;
        errorCode = broken.failure.gatewayCode;
        yield broken.converter.failure(broken.failure);
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
    try {
      if (!segmentCounted) usages.push(segmentUsage(segment));
      if (call.trace && segment.converter.reading) traceAnswer(call.trace, () => segment.converter.reading!());
      // Only what was delivered is charged: reported usage, or a count of the delivered text, per segment.
      settled.settle(recordCall(deps, call, { model: segment.model, status: 200, usage: addUsages(usages), channelId: segment.channel.id, upstreamModel: segment.upstreamModel, ttftMs: committed.ttftMs, error, errorCode, overheadMs: committed.overheadMs }));
    } finally {
      deps.recorder.streamRecorded();
    }
  }
}

/** The text as the client should get it: a restarted answer's replay filter takes out what it already has. */
function forClient(segment: CommittedStream, text: string): string {
  return segment.replay ? segment.replay.filter.pass(text) : text;
}

/**
 * A segment's usage. A restarted answer generated again the text the client already had (and was
 * charged for in the earlier segment): those tokens are taken out; one that never caught up delivered
 * nothing and costs nothing.
 */
function segmentUsage(segment: CommittedStream): Usage {
  const usage = segment.converter.usage();
  if (!segment.replay) return usage;
  if (!segment.replay.filter.caughtUp) return emptyUsage();
  return { ...usage, outputTokens: Math.max(0, usage.outputTokens - estimateTextTokens(segment.replay.prefix)) };
}

function streamFailure(channel: RoutedChannel, cause: unknown): GatewayError {
  return classifyTransportError(cause) === 'silent'
    ? upstreamTimeout(channel.name, 'idle stream')
    : gatewayError('GW_ERR_STREAM_CUT', { message: `The upstream channel '${channel.name}' stream failed midway: ${(cause as Error).message}`, code: 'upstream_stream_failed' });
}

/** Binary answers (audio): bytes pass through as they arrive; a cut ends the response early. */
export async function* bytesToClient(context: AttemptContext, response: UpstreamResponse, meta: { channel: RoutedChannel; model: string; upstreamModel: string; usage: () => Usage; overheadMs: number }, settled: Settled): AsyncGenerator<Buffer> {
  const { deps, call } = context;
  let error: string | null = null;
  deps.recorder.streamOpened();
  try {
    for await (const chunk of response.chunks()) yield chunk;
  } catch (cause) {
    error = `upstream failed midway: ${(cause as Error).message}`;
    deps.logger.warn({ requestId: call.requestId, channel: meta.channel.name, err: error }, 'binary upstream answer failed midway');
    throw cause;
  } finally {
    try {
      settled.settle(recordCall(deps, call, { model: meta.model, status: error ? 502 : 200, usage: meta.usage(), channelId: meta.channel.id, upstreamModel: meta.upstreamModel, ttftMs: null, error, overheadMs: meta.overheadMs }));
    } finally {
      deps.recorder.streamRecorded();
    }
  }
}

