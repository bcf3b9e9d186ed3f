// Continuing a stream that broke after the client received part of it. First choice: a channel that
// accepts an assistant prefill continues the same answer. Otherwise (no such channel, or it refused the
// prefill): the call is restarted there without the prefill and only the part the client does not have
// yet is sent on (attempts-replay.ts), as long as the new answer repeats what was delivered.
import { AttemptUsage } from './attempt-usage.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { sendUpstream } from '../upstream/send-upstream.ts';
import type { RelayHop } from './relay-hop.ts';
import { DEFAULT_TIMEOUTS } from './attempt-policy.ts';
import { upstreamModelFor } from './resolve-candidates.ts';
import { createUpstreamPump, isUpstreamStream } from './upstream-stream-framing.ts';
import { firstOutput, malformedEventLogger, type AttemptContext } from './attempt-first-output.ts';
import { deliveredThrough, type CommittedStream } from './committed-stream.ts';
import { createReplayFilter } from './attempts-replay.ts';
import { getFormat } from '../formats/index.ts';
import { redactSecrets } from './redact-credentials.ts';
import { attemptRecord, logAttempt } from './attempt-log.ts';

/**
 * Opens a stream on one route up to its first event, for a continuation ('continued', with the prefill
 * hop) or a restart; null when it cannot. The policy below is composed around it: the relay's opens a real
 * upstream stream (openSegment); tests hand it a fake one.
 */
export type SegmentOpener = (context: AttemptContext, hop: RelayHop, channel: RoutedChannel, model: string, kind: 'continued' | 'restarted') => Promise<CommittedStream | null>;

/**
 * Mends a broken stream on another route: the same model's other channels first, then the fallback
 * models'. On each: an assistant-prefill continuation if the channel accepts one, else (or when it refuses
 * the prefill) a restart whose repeated part is held back. Text-only answers only: a half-delivered tool
 * call cannot be resumed. Null when no route could; the caller then reports the original failure.
 */
export async function continueElsewhere(context: AttemptContext, failed: CommittedStream, open: SegmentOpener = openSegment): Promise<CommittedStream | null> {
  const { deps, call } = context;
  const delivered = deliveredThrough(failed);
  if (delivered.toolCalls || delivered.text.length === 0) return null;
  // Several answers (`n`, `candidateCount`) interleave in one stream: what was delivered is their texts
  // mixed, which neither a prefill nor a replayed restart can continue as any one of them.
  if ((getFormat(call.inboundFormat).severalAnswers?.asked(call.body) ?? 1) > 1) return null;
  const prefillHop = context.hop.continuation?.(delivered.text);
  const startIndex = Math.max(0, context.routes.findIndex((route) => route.model === failed.model));
  for (const route of context.routes.slice(startIndex)) {
    for (const channel of route.channels) {
      if (channel.id === failed.channel.id || deps.breakers.isOpen(channel.id)) continue;
      if (prefillHop && channel.supportsPrefill) {
        const continued = await open(context, prefillHop, channel, route.model, 'continued');
        if (continued) return { ...continued, prefill: delivered.text };
      }
      // Restarting needs the client's own format read back, and a hop that can stream this call.
      const filter = context.hop.stream ? createReplayFilter(getFormat(call.inboundFormat), delivered.text) : null;
      if (!filter) continue;
      const restarted = await open(context, context.hop, channel, route.model, 'restarted');
      if (restarted) return { ...restarted, replay: { filter, prefix: delivered.text } };
    }
  }
  return null;
}

/** Opens a stream on one route up to its first event; null (and a note in the attempts) when it cannot. */
async function openSegment(context: AttemptContext, hop: RelayHop, channel: RoutedChannel, model: string, kind: 'continued' | 'restarted'): Promise<CommittedStream | null> {
  const { deps, call } = context;
  const started = performance.now();
  const upstreamModel = upstreamModelFor(channel, model);
  const what = kind === 'continued' ? 'continuation' : 'restart';
  const trace = call.trace ? call.trace.attempt(what, channel, model, upstreamModel) : null;
  // Each segment tried ends in one immutable record in the call's log, whatever became of it.
  const note = (outcome: string, status: number | null, error: string | null) => {
    logAttempt(call.meter, attemptRecord(model, channel.name, status, outcome, error, started));
    if (trace && outcome !== kind) trace.failed(status, new Error(error ?? outcome));
  };
  try {
    const sent = await hop.request(channel, upstreamModel);
    const response = await sendUpstream(deps.agents, {
      channel,
      ...sent,
      traceparent: trace?.traceparent,
      signal: call.signal,
      headersTimeoutMs: channel.timeouts.headersMs ?? DEFAULT_TIMEOUTS.streamHeadersMs,
      idleTimeoutMs: channel.timeouts.idleMs ?? DEFAULT_TIMEOUTS.idleMs,
    });
    if (response.statusCode >= 400 || !isUpstreamStream(channel, response.headers['content-type'])) {
      const text = await response.text().catch(() => '');
      note(`${what} refused`, response.statusCode, redactSecrets(text.slice(0, 300), channel.apiKeys));
      return null;
    }
    const converter = hop.stream!(channel, sent, new AttemptUsage(call, sent.outputLimit));
    const pump = createUpstreamPump(channel, response.chunks(), converter, malformedEventLogger(deps, call, channel));
    const first = await firstOutput(pump, channel.timeouts.firstTokenMs ?? DEFAULT_TIMEOUTS.firstTokenMs, call.signal).catch(async (error: unknown) => {
      await pump.stop();
      throw error;
    });
    if (!first) {
      note(`${what} empty`, 200, null);
      return null;
    }
    note(kind, 200, null);
    if (trace) call.trace!.serving(trace);
    return { channel, model, upstreamModel, converter, pump, first, ttftMs: 0, overheadMs: 0 };
  } catch (error) {
    if (call.signal.aborted) {
      trace?.cancelled();
      throw error;
    }
    note(`${what} failed`, null, (error as Error).message);
    return null;
  }
}
