// OpenAI chat (and legacy completions, whose streams have the same framing) to an OpenAI-type channel:
// the client's bytes go upstream (model id mapped, usage requested in streams) and the answer comes back
// as it is, with usage captured on the way.
import type { EventSourceMessage } from 'eventsource-parser';
import type { Usage } from '../../metering/usage.ts';
import type { HubUsage } from '../../hub/hub-response.ts';
import { readUsageObjectFromTail } from '../../metering/read-usage-from-tail.ts';
import { estimatePromptTokens, estimateTextTokens } from '../../metering/estimate-tokens.ts';
import { resolveUsage } from '../../metering/resolve-usage.ts';
import { statedOutputLimit } from '../../metering/output-limit.ts';
import { hubUsageToOpenai, openaiUsageToHub } from '../../formats/openai-chat/openai-chat-usage.ts';
import type { GatewayError } from '../../gateway-errors.ts';
import { operationPath, supportsOperation } from '../../providers/operation-path.ts';
import type { RelayCall } from '../relay-types.ts';
import { MalformedEventError, type RelayHop, type StreamConverter, type UpstreamCallShape, type WholeAnswer } from '../relay-hop.ts';
import type { RoutedChannel } from '../../routing/routing-table.ts';
import { formatSseEvent } from '../sse-pump.ts';
import { gatewayErrorFromUpstream } from '../upstream-error.ts';
import { getFormat } from '../../formats/index.ts';
import { streamUsageOptionOf, type StreamUsageOption } from './stream-usage-option.ts';
import { rawBodyIsUnambiguous } from '../raw-body-keys.ts';

export function openAIChatPassthroughHop(call: RelayCall, prefill: string | null = null, operation: 'chat' | 'completions' = 'chat'): RelayHop {
  return operation === 'chat' ? new ContinuableOpenAIPassthroughHop(call, prefill, operation) : new OpenAIPassthroughHop(call, prefill, operation);
}

/** A class, not an object of closures: one per call, kept while its stream is open; methods cost nothing per call. */
class OpenAIPassthroughHop implements RelayHop {
  protected readonly call: RelayCall;
  protected readonly prefill: string | null;
  private readonly operation: 'chat' | 'completions';
  private readonly usageOption: StreamUsageOption | null;

  constructor(call: RelayCall, prefill: string | null, operation: 'chat' | 'completions') {
    this.call = call;
    this.prefill = prefill;
    this.operation = operation;
    // The fields that make the upstream report usage are the client format's declaration (streamUsageOption).
    this.usageOption = streamUsageOptionOf(getFormat(call.inboundFormat));
  }

  /** Passthrough only: the channel serves chat in the client's own format. */
  supports(channel: RoutedChannel): boolean {
    return channel.chatFormat === this.call.inboundFormat && supportsOperation(channel, this.operation);
  }

  request(channel: RoutedChannel, upstreamModel: string): UpstreamCallShape {
    const { call, prefill, operation } = this;
    return {
      path: operationPath(channel, operation === 'chat' && call.stream ? 'chat-stream' : operation, upstreamModel),
      headers: { 'content-type': 'application/json' },
      body: prefill === null ? upstreamBody(call, upstreamModel, this.usageOption) : continuationBody(call, upstreamModel, prefill, this.usageOption),
    };
  }

  whole(text: string): WholeAnswer {
    const { call } = this;
    // The format's own usage reader; what it leaves unknown is counted from the request and the answer.
    // The client's body went upstream with only the model (and stream_options) changed: its limit is the upstream's.
    const usage = resolveUsage(openaiUsageToHub(readUsageObjectFromTail(text)), { prompt: () => estimatePromptTokens(call.body), output: () => estimateTextTokens(wholeAnswerText(text)), outputLimit: () => statedOutputLimit(call.body) });
    return { body: text, contentType: 'application/json', usage };
  }

  error(channel: RoutedChannel, status: number, text: string): GatewayError {
    return gatewayErrorFromUpstream(channel, status, text);
  }

  stream(): StreamConverter {
    // Whether the client asked for usage itself: read here, only for streams (a whole answer never needs it).
    const clientWantsUsage = this.usageOption === null || this.usageOption.askedBy(this.call.body);
    return passthroughStream(this.call, clientWantsUsage, this.prefill !== null);
  }
}

/** Chat (not legacy completions) can be continued elsewhere after a cut, with the delivered text as a prefill. */
class ContinuableOpenAIPassthroughHop extends OpenAIPassthroughHop {
  continuation(deliveredText: string): RelayHop {
    return openAIChatPassthroughHop(this.call, (this.prefill ?? '') + deliveredText);
  }
}

export function openAICompletionsPassthroughHop(call: RelayCall): RelayHop {
  return openAIChatPassthroughHop(call, null, 'completions');
}

/**
 * The original request with the delivered text as a trailing assistant message to continue.
 * continue_final_message and add_generation_prompt are vLLM's names for "continue this message".
 */
function continuationBody(call: RelayCall, upstreamModel: string, prefill: string, usageOption: StreamUsageOption | null): string {
  const { models: _fallbackList, ...rest } = call.body;
  const messages = [...(call.body.messages as unknown[]), { role: 'assistant', content: prefill }];
  const body = { ...rest, model: upstreamModel, messages, continue_final_message: true, add_generation_prompt: false };
  // A continuation always streams, and its usage is what the retry is billed by.
  return JSON.stringify(usageOption === null ? body : usageOption.mergeInto(body));
}

/** The client's bytes unless the model id or the stream usage option must change, or they are ambiguous (raw-body-keys.ts). */
export function upstreamBody(call: RelayCall, upstreamModel: string, usageOption: StreamUsageOption | null): Buffer | string {
  const needsUsageOption = call.stream && usageOption !== null && !usageOption.askedBy(call.body);
  const unchangedModel = upstreamModel === call.model && call.body.models === undefined && rawBodyIsUnambiguous(call.rawBody);
  if (unchangedModel && !needsUsageOption) return call.rawBody;
  if (unchangedModel && usageOption!.absentFrom(call.body)) {
    // Append the fields before the closing brace: no re-serialisation of a possibly large body.
    const end = call.rawBody.lastIndexOf(0x7d);
    return Buffer.concat([call.rawBody.subarray(0, end), usageOption!.appendBytes]);
  }
  const { models: _fallbackList, ...rest } = call.body;
  const body: Record<string, unknown> = { ...rest, model: upstreamModel };
  return JSON.stringify(needsUsageOption ? usageOption!.mergeInto(body) : body);
}

type ChunkShape = { usage?: unknown; choices?: { text?: unknown; delta?: { content?: unknown; reasoning_content?: unknown; tool_calls?: { function?: { arguments?: unknown } }[] } }[] };

/**
 * Forwards chunks without parsing most of them: only a chunk carrying usage (and a continuation's opening
 * chunk) is parsed on the way. The delivered text is read from the kept chunks only when it is needed (no
 * usage reported, or a continuation), so the common path costs a string check per event.
 */
function passthroughStream(call: RelayCall, clientWantsUsage: boolean, continuing: boolean): StreamConverter {
  return new PassthroughStreamConverter(call, clientWantsUsage, continuing);
}

/** One per open stream: a class, so the stream keeps one object and its kept chunks, not seven closures. */
class PassthroughStreamConverter implements StreamConverter {
  private readonly call: RelayCall;
  private readonly clientWantsUsage: boolean;
  private readonly continuing: boolean;
  /** The data line the client's format ends a stream with ('[DONE]' for chat and legacy completions). */
  private readonly terminator: string | null;
  private reported: HubUsage | null = null;
  private sawDone = false;
  private first = true;
  private readonly kept: string[] = [];
  private counted: Usage | null = null;

  constructor(call: RelayCall, clientWantsUsage: boolean, continuing: boolean) {
    this.call = call;
    this.clientWantsUsage = clientWantsUsage;
    this.continuing = continuing;
    this.terminator = getFormat(call.inboundFormat).streamTerminator;
  }

  delivered(): { text: string; toolCalls: boolean } {
    return readDelivered(this.kept);
  }

  usage(): Usage {
    const { call } = this;
    return this.counted ?? resolveUsage(this.reported, { prompt: () => estimatePromptTokens(call.body), output: () => estimateTextTokens(this.delivered().text), outputLimit: () => statedOutputLimit(call.body) });
  }

  /**
   * A client that asked for the usage chunk gets one even from an upstream that sent none (a server that
   * ignores stream_options): the counted usage it is billed by, just before [DONE].
   */
  private countedUsageChunk(): string {
    if (this.reported !== null || !this.clientWantsUsage || this.continuing || this.kept.length === 0) return '';
    const counted = this.usage();
    this.counted = counted;
    let head: { id?: unknown; object?: unknown; created?: unknown; model?: unknown } = {};
    try {
      head = JSON.parse(this.kept[0]!) as typeof head;
    } catch {
      // the chunk was forwarded as it came; the usage chunk is written without its names
    }
    return formatSseEvent(JSON.stringify({ id: head.id, object: head.object, created: head.created, model: head.model, choices: [], usage: hubUsageToOpenai(counted) }));
  }

  event(event: EventSourceMessage): string {
    const data = event.data;
    if (data === this.terminator) {
      this.sawDone = true;
      return this.countedUsageChunk() + formatSseEvent(data);
    }
    // A cheap shape check catches truncated or garbled events without parsing every one.
    if (data.charCodeAt(0) !== 123 || data.charCodeAt(data.length - 1) !== 125) throw new MalformedEventError(`not JSON: ${data.slice(0, 80)}`);
    const opening = this.first;
    this.first = false;
    if (data.includes('"usage":{') || (this.continuing && opening)) {
      let chunk: ChunkShape;
      try {
        chunk = JSON.parse(data) as ChunkShape;
      } catch {
        throw new MalformedEventError(`not JSON: ${data.slice(0, 80)}`);
      }
      if (chunk.usage) {
        this.reported = openaiUsageToHub(chunk.usage);
        // The usage-only chunk exists because the gateway asked for it; a client that did not ask never sees it.
        if (!this.clientWantsUsage && Array.isArray(chunk.choices) && chunk.choices.length === 0) return '';
      }
      // A continuation's opening role-only chunk would read as a second answer starting; the client has one.
      if (this.continuing && opening && isRoleOnlyChunk(chunk)) return '';
    }
    this.kept.push(data);
    return formatSseEvent(data, event.event);
  }

  /** A stream that ends without its terminator is finalised, so clients do not wait forever. */
  end(): string {
    return this.sawDone ? '' : this.countedUsageChunk() + (this.terminator === null ? '' : formatSseEvent(this.terminator));
  }

  failure(error: GatewayError): string {
    return formatSseEvent(JSON.stringify({ error: { message: error.message, type: error.kind, code: error.code, param: null } }));
  }
}

/** The text (and whether tool calls were part of it) in the chunks a client has received. */
function readDelivered(chunks: string[]): { text: string; toolCalls: boolean } {
  let text = '';
  let toolCalls = false;
  for (const data of chunks) {
    let chunk: ChunkShape;
    try {
      chunk = JSON.parse(data) as ChunkShape;
    } catch {
      continue;
    }
    for (const choice of chunk.choices ?? []) {
      if (typeof choice.text === 'string') text += choice.text;
      const delta = choice.delta;
      if (typeof delta?.content === 'string') text += delta.content;
      if (typeof delta?.reasoning_content === 'string') text += delta.reasoning_content;
      for (const toolCall of delta?.tool_calls ?? []) {
        toolCalls = true;
        text += String(toolCall.function?.arguments ?? '');
      }
    }
  }
  return { text, toolCalls };
}

function isRoleOnlyChunk(chunk: ChunkShape): boolean {
  const delta = chunk.choices?.[0]?.delta as { role?: unknown; content?: unknown; tool_calls?: unknown } | undefined;
  return delta !== undefined && typeof delta.role === 'string' && !delta.content && !delta.tool_calls;
}

/** Everything a whole chat or completions answer delivered: text, reasoning, tool names and arguments. */
function wholeAnswerText(text: string): string {
  type Choice = { text?: unknown; message?: { content?: unknown; reasoning_content?: unknown; tool_calls?: { function?: { name?: unknown; arguments?: unknown } }[] } };
  let delivered = '';
  try {
    const answer = JSON.parse(text) as { choices?: Choice[] };
    for (const choice of answer.choices ?? []) {
      if (typeof choice.text === 'string') delivered += choice.text;
      const message = choice.message;
      if (typeof message?.content === 'string') delivered += message.content;
      if (typeof message?.reasoning_content === 'string') delivered += message.reasoning_content;
      for (const call of message?.tool_calls ?? []) delivered += String(call.function?.name ?? '') + String(call.function?.arguments ?? '');
    }
  } catch {
    // not JSON: nothing readable was delivered
  }
  return delivered;
}
