// A channel that speaks the client's own format (Anthropic to Anthropic, Gemini to Gemini): the body goes
// upstream unchanged but for the mapped model id, with the client's version headers, and every event comes
// back unchanged. The format's stream machine only watches the events, for usage and delivered text.
// A request for several answers (Gemini candidateCount) gets them all; the hub reading sees the first, so
// the others are read apart (SeveralAnswers.laterAnswersText) and counted too when no usage is reported.
import type { Logger } from 'pino';
import type { FormatConverters, SeveralAnswers } from '../../hub/hub-format.ts';
import type { HubUsage } from '../../hub/hub-response.ts';
import { estimateHubResponseTokens, estimatePromptTokens, estimateTextTokens } from '../../metering/estimate-tokens.ts';
import { resolveUsage, type UsageCounts } from '../../metering/resolve-usage.ts';
import { statedOutputLimit } from '../../metering/output-limit.ts';
import type { Usage } from '../../metering/usage.ts';
import { deliveredOutput } from './delivered-output.ts';
import { operationPath, supportsOperation } from '../../providers/operation-path.ts';
import type { RelayCall } from '../relay-types.ts';
import { MalformedEventError, type RelayHop, type StreamConverter } from '../relay-hop.ts';
import { formatSseEvent } from '../sse-pump.ts';
import { gatewayErrorFromUpstream } from '../upstream-error.ts';
import { withModel } from './openai-json-passthrough-hop.ts';

export interface SameFormatOptions {
  call: RelayCall;
  format: FormatConverters;
  logger: Logger;
}

export function sameFormatPassthroughHop(options: SameFormatOptions): RelayHop {
  const { call, format } = options;
  const laterAnswers = laterAnswersReader(call, format.severalAnswers);
  return {
    supports: (channel) => channel.chatFormat === format.name && supportsOperation(channel, format.chatOperations.whole),
    request(channel, upstreamModel) {
      return {
        path: operationPath(channel, call.stream ? format.chatOperations.stream : format.chatOperations.whole, upstreamModel),
        // The client's own version and beta headers win over the gateway's defaults on a same-format hop.
        headers: { 'content-type': 'application/json', ...call.forwardHeaders },
        body: format.modelIn === 'body' ? withModel(call, upstreamModel) : call.rawBody,
      };
    },
    whole(text) {
      const prompt = () => estimatePromptTokens(call.body);
      // The client's body is what went upstream (only the model changed): its limit is the upstream's.
      const outputLimit = () => statedOutputLimit(call.body);
      let usage: Usage;
      try {
        const json: unknown = JSON.parse(text);
        const hub = format.responseToHub(json);
        const output = () => estimateHubResponseTokens(hub) + (laterAnswers === null ? 0 : estimateTextTokens(laterAnswers(json)));
        usage = resolveUsage(hub.usage, { prompt, output, outputLimit });
      } catch {
        usage = resolveUsage(null, { prompt, output: () => estimateTextTokens(text), outputLimit });
      }
      return { body: text, contentType: 'application/json', usage };
    },
    error: (channel, status, text) => gatewayErrorFromUpstream(channel, status, text),
    stream: () => watchingConverter(call, format, options.logger, laterAnswers),
  };
}

/** The reader of the answers after the first, when the call asked for several; null (nothing to read) otherwise. */
function laterAnswersReader(call: RelayCall, several: SeveralAnswers | undefined): ((json: unknown) => string) | null {
  if (several?.laterAnswersText === undefined || several.asked(call.body) === 1) return null;
  return several.laterAnswersText;
}

function watchingConverter(call: RelayCall, format: FormatConverters, logger: Logger, laterAnswers: ((json: unknown) => string) | null): StreamConverter {
  const watcher = format.streamToHubMachine({ onWarning: (warning) => logger.warn({ requestId: call.requestId, detail: warning.detail }, 'skipped an upstream event') });
  let reported: HubUsage | null = null;
  let sawFinish = false;
  const output = deliveredOutput();
  // The answers after the first, as delivered: each event parsed a second time, only when several were asked.
  const later: string[] = [];
  const observe = (parts: ReturnType<typeof watcher.push>) => {
    for (const part of parts) {
      output.observe(part);
      if (part.type === 'finish') {
        reported = part.usage;
        sawFinish = true;
      }
    }
  };
  const closer = format.streamCloser?.() ?? null;
  const counted = () => output.tokens() + (later.length === 0 ? 0 : estimateTextTokens(later.join('')));
  const counts: UsageCounts = { prompt: () => estimatePromptTokens(call.body), output: counted, outputLimit: () => statedOutputLimit(call.body) };
  const currentUsage = () => resolveUsage(reported, counts);
  return {
    event(event) {
      // A broken event is skipped (and logged by the pump); the rest of the stream goes on.
      if (event.data.charCodeAt(0) !== 123 || event.data.charCodeAt(event.data.length - 1) !== 125) throw new MalformedEventError(`not JSON: ${event.data.slice(0, 80)}`);
      // The parsed event is handed on as it is: machines and closers read only its `event` and `data`.
      observe(watcher.push(event));
      if (laterAnswers !== null) {
        const text = laterAnswers(parsedOrNull(event.data));
        if (text.length > 0) later.push(text);
      }
      closer?.observe(event);
      return formatSseEvent(event.data, event.event);
    },
    end() {
      observe(watcher.end());
      // A stream cut short of its terminator is finished here, with the usage counted so far.
      let out = '';
      for (const event of closer?.close(currentUsage().outputTokens) ?? []) out += formatSseEvent(event.data, event.event);
      return out;
    },
    failure: (error) => {
      const event = format.hubErrorToStreamEvent(error);
      return formatSseEvent(event.data, event.event);
    },
    usage: currentUsage,
    delivered: () => ({ text: output.text, toolCalls: output.toolCalls || sawFinish }),
  };
}

/** An event's JSON, or null for one that only looked like JSON (the watcher has skipped it already). */
function parsedOrNull(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}
