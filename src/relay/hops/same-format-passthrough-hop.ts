// A channel that speaks the client's own format (Anthropic to Anthropic, Gemini to Gemini): the body goes
// upstream unchanged but for the mapped model id, with the client's version headers, and every event comes
// back unchanged. The format's stream machine only watches the events, for usage and delivered text.
import type { Logger } from 'pino';
import type { FormatConverters } from '../../hub/hub-format.ts';
import type { HubUsage } from '../../hub/hub-response.ts';
import { estimatePromptTokens, estimateTextTokens } from '../../metering/estimate-tokens.ts';
import { emptyUsage } from '../../metering/usage.ts';
import { operationPath, supportsOperation } from '../../providers/operation-path.ts';
import { nextUpstreamKey } from '../../routing/choose-channel.ts';
import type { RelayCall } from '../relay-types.ts';
import { MalformedEventError, type RelayHop, type StreamConverter } from '../relay-hop.ts';
import { anthropicStreamCloser } from './anthropic-stream-closer.ts';
import { formatSseEvent } from '../sse-pump.ts';
import { gatewayErrorFromUpstream } from '../upstream-error.ts';
import { withModel } from './openai-json-passthrough-hop.ts';

export interface SameFormatOptions {
  call: RelayCall;
  format: FormatConverters;
  logger: Logger;
  /** Where the model id lives: in the body (Anthropic) or only in the path (Gemini). */
  modelInBody: boolean;
}

export function sameFormatPassthroughHop(options: SameFormatOptions): RelayHop {
  const { call, format } = options;
  return {
    supports: (channel) => channel.provider.chatFormat === format.name && supportsOperation(channel, 'chat'),
    request(channel, upstreamModel) {
      return {
        path: operationPath(channel, call.stream ? 'chat-stream' : 'chat', upstreamModel),
        // The client's own version and beta headers win over the gateway's defaults on a same-format hop.
        headers: { 'content-type': 'application/json', ...channel.provider.authHeaders(nextUpstreamKey(channel)), ...call.forwardHeaders },
        body: options.modelInBody ? withModel(call, upstreamModel) : call.rawBody,
      };
    },
    whole(text) {
      let usage: HubUsage = emptyUsage();
      try {
        usage = format.responseToHub(JSON.parse(text)).usage;
      } catch {
        usage = { ...emptyUsage(), inputTokens: estimatePromptTokens(call.body), outputTokens: estimateTextTokens(text) };
      }
      return { body: text, contentType: 'application/json', usage };
    },
    error: (channel, status, text) => gatewayErrorFromUpstream(channel, status, text),
    stream: () => watchingConverter(call, format, options.logger),
  };
}

function watchingConverter(call: RelayCall, format: FormatConverters, logger: Logger): StreamConverter {
  const watcher = format.streamToHubMachine({ onWarning: (warning) => logger.warn({ requestId: call.requestId, detail: warning.detail }, 'skipped an upstream event') });
  let usage: HubUsage | null = null;
  let delivered = '';
  let toolCalls = false;
  let sawFinish = false;
  const observe = (parts: ReturnType<typeof watcher.push>) => {
    for (const part of parts) {
      if (part.type === 'finish') {
        usage = part.usage;
        sawFinish = true;
      }
      if (part.type === 'text-delta') delivered += part.delta;
      if (part.type === 'tool-call-start') toolCalls = true;
    }
  };
  const closer = format.name === 'anthropic-messages' ? anthropicStreamCloser() : null;
  const currentUsage = () => usage ?? { ...emptyUsage(), inputTokens: estimatePromptTokens(call.body), outputTokens: estimateTextTokens(delivered) };
  return {
    event(event) {
      // A broken event is skipped (and logged by the pump); the rest of the stream goes on.
      if (event.data.charCodeAt(0) !== 123 || event.data.charCodeAt(event.data.length - 1) !== 125) throw new MalformedEventError(`not JSON: ${event.data.slice(0, 80)}`);
      observe(watcher.push(event.event ? { event: event.event, data: event.data } : { data: event.data }));
      closer?.observe(event.event, event.data);
      return formatSseEvent(event.data, event.event);
    },
    end() {
      observe(watcher.end());
      // A stream cut short of its terminator is finished here, with the usage counted so far.
      return closer?.close(currentUsage().outputTokens) ?? '';
    },
    failure: (error) => {
      const event = format.hubErrorToStreamEvent(error);
      return formatSseEvent(event.data, event.event);
    },
    usage: currentUsage,
    delivered: () => ({ text: delivered, toolCalls: toolCalls || sawFinish }),
  };
}
