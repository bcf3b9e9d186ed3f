// OpenAI-format chat to an OpenAI-type channel: the client's bytes go upstream (model id mapped, usage
// requested in streams) and the answer comes back as it is, with usage captured on the way.
import type { EventSourceMessage } from 'eventsource-parser';
import { upstreamUnreachable } from '../gateway-errors.ts';
import { emptyUsage, usageFromOpenAI, type Usage } from '../metering/usage.ts';
import { readUsageObjectFromTail } from '../metering/read-usage-from-tail.ts';
import { estimatePromptTokens, estimateTextTokens } from '../metering/estimate-tokens.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { nextUpstreamKey } from '../routing/choose-channel.ts';
import { sendUpstream, type UpstreamResponse } from '../upstream/send-upstream.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import { upstreamModelFor } from './resolve-candidates.ts';
import { formatSseEvent, relaySseStream } from './sse-relay-stream.ts';
import { gatewayErrorFromUpstream } from './upstream-error.ts';
import { renderOpenAIError } from '../http/openai-error.ts';
import { recordCall } from './record-call.ts';

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
};
const JSON_HEADERS = { 'content-type': 'application/json' };

export async function relayOpenAIChatPassthrough(deps: RelayDeps, call: RelayCall, candidates: RoutedChannel[]): Promise<RelayResult> {
  const clientWantsUsage = (call.body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  const attempts: { channel: string; error: string }[] = [];
  let lastError: unknown;
  for (const channel of candidates) {
    const upstreamModel = upstreamModelFor(channel, call.model);
    const startedUpstream = performance.now();
    let response: UpstreamResponse;
    try {
      response = await sendUpstream(deps.agent, {
        channel,
        path: channel.provider.path(call.stream ? 'chat-stream' : 'chat', upstreamModel),
        headers: { ...JSON_HEADERS, ...channel.provider.authHeaders(nextUpstreamKey(channel)) },
        body: upstreamBody(call, upstreamModel, clientWantsUsage),
        signal: call.signal,
      });
    } catch (error) {
      if (call.signal.aborted) throw error;
      // Nothing reached the client yet, so the next channel can still answer invisibly.
      lastError = upstreamUnreachable(channel.name, error);
      attempts.push({ channel: channel.name, error: (error as Error).message });
      deps.logger.warn({ channel: channel.name, err: (error as Error).message, requestId: call.requestId }, 'upstream unreachable, trying the next channel');
      continue;
    }
    deps.metrics.upstreamLatency.observe({ channel: channel.name }, (performance.now() - startedUpstream) / 1000);
    const base = { deps, call, channel, upstreamModel, attempts };
    if (response.statusCode >= 400) return relayUpstreamError(base, response);
    const isSse = String(response.headers['content-type'] ?? '').includes('text/event-stream');
    return call.stream && isSse ? relayStream(base, response, clientWantsUsage) : relayWhole(base, response);
  }
  throw lastError;
}

interface AttemptContext {
  deps: RelayDeps;
  call: RelayCall;
  channel: RoutedChannel;
  upstreamModel: string;
  attempts: { channel: string; error: string }[];
}

/** The client's bytes unless the model id or the stream options must change. */
function upstreamBody(call: RelayCall, upstreamModel: string, clientWantsUsage: boolean): Buffer | string {
  const needsUsageOption = call.stream && !clientWantsUsage;
  if (upstreamModel === call.model && !needsUsageOption) return call.rawBody;
  if (upstreamModel === call.model && call.body.stream_options === undefined) {
    // Append the field before the closing brace: no re-serialisation of a possibly large body.
    const end = call.rawBody.lastIndexOf(0x7d);
    return Buffer.concat([call.rawBody.subarray(0, end), Buffer.from(',"stream_options":{"include_usage":true}}')]);
  }
  const body: Record<string, unknown> = { ...call.body, model: upstreamModel };
  if (needsUsageOption) body.stream_options = { ...(call.body.stream_options as object | undefined), include_usage: true };
  return JSON.stringify(body);
}

async function relayUpstreamError(ctx: AttemptContext, response: UpstreamResponse): Promise<RelayResult> {
  const text = await response.text();
  const error = gatewayErrorFromUpstream(ctx.channel.name, response.statusCode, text);
  record(ctx, error.status, emptyUsage(), null, error.message);
  const rendered = renderOpenAIError(error);
  return { kind: 'buffer', status: rendered.status, headers: JSON_HEADERS, body: rendered.body };
}

async function relayWhole(ctx: AttemptContext, response: UpstreamResponse): Promise<RelayResult> {
  const text = await response.text();
  const usage = usageFromOpenAI(readUsageObjectFromTail(text)) ?? estimateWholeUsage(ctx.call, text);
  record(ctx, response.statusCode, usage, null, null);
  return { kind: 'buffer', status: response.statusCode, headers: JSON_HEADERS, body: text };
}

function relayStream(ctx: AttemptContext, response: UpstreamResponse, clientWantsUsage: boolean): RelayResult {
  const { call } = ctx;
  let usage: Usage | null = null;
  let sawDone = false;
  let ttftMs: number | null = null;
  let streamError: string | null = null;
  // Kept only to estimate usage if the upstream never reports it.
  const delivered: string[] = [];

  const body = relaySseStream(response.chunks(), {
    onEvent(event: EventSourceMessage) {
      const data = event.data;
      if (data === '[DONE]') {
        sawDone = true;
        return formatSseEvent(data);
      }
      ttftMs ??= performance.now() - call.startedAt;
      if (data.includes('"usage":{')) {
        const chunk = safeParse(data) as { usage?: unknown; choices?: unknown[] } | null;
        usage = usageFromOpenAI(chunk?.usage) ?? usage;
        // The usage-only chunk exists because the gateway asked for it; a client that did not ask never sees it.
        if (!clientWantsUsage && Array.isArray(chunk?.choices) && chunk.choices.length === 0) return '';
      }
      if (usage === null) delivered.push(data);
      return formatSseEvent(data, event.event);
    },
    onEnd() {
      // A stream that ends without its terminator is finalised, so clients do not wait forever.
      return sawDone ? '' : formatSseEvent('[DONE]');
    },
    onError(error) {
      streamError = `upstream stream failed: ${(error as Error).message}`;
      ctx.deps.logger.warn({ channel: ctx.channel.name, requestId: call.requestId, err: streamError }, 'upstream stream failed');
      return formatSseEvent(JSON.stringify({ error: { message: streamError, type: 'upstream_error', code: 'upstream_stream_failed', param: null } }));
    },
    onClose(clientGone) {
      const finalUsage = usage ?? estimateStreamUsage(call, delivered);
      const error = streamError ?? (clientGone && !sawDone ? 'client disconnected before the stream ended' : null);
      record(ctx, 200, finalUsage, ttftMs, error);
    },
  }, call.signal);
  return { kind: 'stream', status: 200, headers: SSE_HEADERS, body };
}

function record(ctx: AttemptContext, status: number, usage: Usage, ttftMs: number | null, error: string | null): void {
  recordCall(ctx.deps, ctx.call, {
    status,
    usage,
    channelId: ctx.channel.id,
    upstreamModel: ctx.upstreamModel,
    ttftMs,
    error,
    attempts: ctx.attempts.length > 0 ? ctx.attempts : null,
  });
}

function estimateWholeUsage(call: RelayCall, text: string): Usage {
  const answer = safeParse(text) as { choices?: { message?: { content?: unknown } }[] } | null;
  const content = answer?.choices?.map((choice) => String(choice.message?.content ?? '')).join('') ?? '';
  return { ...emptyUsage(), inputTokens: estimatePromptTokens(call.body), outputTokens: estimateTextTokens(content) };
}

function estimateStreamUsage(call: RelayCall, delivered: string[]): Usage {
  let text = '';
  for (const data of delivered) {
    const chunk = safeParse(data) as { choices?: { delta?: { content?: unknown; reasoning_content?: unknown; tool_calls?: { function?: { arguments?: unknown } }[] } }[] } | null;
    for (const choice of chunk?.choices ?? []) {
      const delta = choice.delta;
      if (typeof delta?.content === 'string') text += delta.content;
      if (typeof delta?.reasoning_content === 'string') text += delta.reasoning_content;
      for (const toolCall of delta?.tool_calls ?? []) text += String(toolCall.function?.arguments ?? '');
    }
  }
  return { ...emptyUsage(), inputTokens: estimatePromptTokens(call.body), outputTokens: estimateTextTokens(text) };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
