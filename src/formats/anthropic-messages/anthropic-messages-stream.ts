// Anthropic message streams ⇄ hub stream parts, as small state machines over content block indexes.
import {
  machineToTransformStream,
  parseEventJson,
  type HubStreamPart,
  type HubToStreamContext,
  type SseEvent,
  type StreamMachine,
  type StreamToHubContext,
  type TextDeltaReader,
} from '../../hub/hub-stream.ts';
import { anthropicErrorStatus, anthropicErrorToHub, hubErrorToAnthropicStreamEvent } from './anthropic-messages-error.ts';
import { hubFinishReasonToAnthropic, mapAnthropicStopReason } from './anthropic-messages-finish-reason.ts';
import { anthropicMessageId } from './anthropic-messages-response.ts';
import { anthropicStreamEventSchema, type AnthropicStreamEvent, type AnthropicUsage } from './anthropic-messages-schema.ts';
import { anthropicUsageToHub, hubUsageToAnthropic, mergeAnthropicUsage } from './anthropic-messages-usage.ts';
import { encodeToolCallId } from '../../hub/hub-tool-call-ids.ts';
import { anthropicTextDeltaOf } from './anthropic-messages-text-delta.ts';
import { anthropicMessagesRequestFacts } from './anthropic-messages-request-facts.ts';
import { signatureForClient } from '../../hub/hub-signatures.ts';
import { anthropicCitationToHub, anthropicServerToolCallToHub, anthropicWebSearchResultToHub, hubCitationToAnthropic, hubServerToolCallToAnthropic, hubServerToolResultToAnthropic } from './anthropic-messages-server-tools.ts';

export function createAnthropicMessagesStreamToHubMachine(ctx: StreamToHubContext = {}): StreamMachine<SseEvent, HubStreamPart> & TextDeltaReader {
  let done = false;
  let stopReason: string | null = null;
  let usage: AnthropicUsage = {};
  // Content block index → the hub's tool-call index, for the blocks that are tool_use.
  const toolForBlock = new Map<number, number>();
  // Content block index → a server_tool_use block whose input is still streaming (its query).
  const serverCalls = new Map<number, { block: Record<string, unknown>; json: string }>();

  const finish = (): HubStreamPart[] => {
    done = true;
    return [{ type: 'finish', finishReason: mapAnthropicStopReason(stopReason), usage: anthropicUsageToHub(usage) }];
  };

  return {
    push(event) {
      if (done) return [];
      // Text deltas are most of a stream: read in their fixed form without building objects.
      const text = anthropicTextDeltaOf(event.data);
      if (text !== undefined) return text ? [{ type: 'text-delta', delta: text }] : [];
      const json = parseEventJson(event, ctx.onWarning);
      if (json === undefined) return [];
      let e = commonStreamEvent(json);
      if (e === null) {
        const parsed = anthropicStreamEventSchema.safeParse(json);
        if (!parsed.success) {
          ctx.onWarning?.({ type: 'dropped', feature: event.event ?? 'event', detail: 'skipped an event that is not an Anthropic stream event.' });
          return [];
        }
        e = parsed.data;
      }
      switch (e.type) {
        case 'message_start':
          // message_start's output_tokens is a placeholder (1 or so); only message_delta's is the count.
          usage = mergeAnthropicUsage(usage, e.message.usage ? { ...e.message.usage, output_tokens: undefined } : null);
          return [{ type: 'start', id: e.message.id, model: e.message.model, ...startPromptUsage(usage) }];
        case 'content_block_start': {
          const block = e.content_block as Record<string, unknown>;
          switch (block.type) {
            case 'text':
              return block.text ? [{ type: 'text-delta', delta: String(block.text) }] : [];
            case 'thinking':
              return block.thinking ? [{ type: 'reasoning-delta', delta: String(block.thinking) }] : [];
            case 'redacted_thinking':
              return [{ type: 'reasoning-delta', delta: '', redactedData: String(block.data), signatureFamily: 'anthropic' }];
            case 'tool_use': {
              const index = toolForBlock.size;
              toolForBlock.set(e.index, index);
              const out: HubStreamPart[] = [{ type: 'tool-call-start', index, id: String(block.id), name: String(block.name) }];
              const input = block.input as Record<string, unknown> | undefined;
              if (input && Object.keys(input).length > 0) out.push({ type: 'tool-call-delta', index, argumentsDelta: JSON.stringify(input) });
              return out;
            }
            case 'server_tool_use':
              // Its input (the query) streams as input_json_delta; the call is whole at content_block_stop.
              serverCalls.set(e.index, { block, json: '' });
              return [];
            case 'web_search_tool_result':
              return [anthropicWebSearchResultToHub(block)];
            default:
              ctx.onWarning?.({ type: 'dropped', feature: `content_block ${String(block.type)}`, detail: 'server-side tool blocks have no hub form.' });
              return [];
          }
        }
        case 'content_block_delta': {
          const d = e.delta;
          if (d.type === 'text_delta' && d.text) return [{ type: 'text-delta', delta: d.text }];
          if (d.type === 'thinking_delta' && d.thinking) return [{ type: 'reasoning-delta', delta: d.thinking }];
          if (d.type === 'signature_delta' && d.signature) return [{ type: 'reasoning-delta', delta: '', signature: d.signature, signatureFamily: 'anthropic' }];
          if (d.type === 'input_json_delta' && d.partial_json) {
            const index = toolForBlock.get(e.index);
            if (index !== undefined) return [{ type: 'tool-call-delta', index, argumentsDelta: d.partial_json }];
            const server = serverCalls.get(e.index);
            if (server) server.json += d.partial_json;
          }
          if (d.type === 'citations_delta') {
            const citation = anthropicCitationToHub((d as { citation?: unknown }).citation);
            if (citation) return [{ type: 'citation', citation }];
          }
          return [];
        }
        case 'content_block_stop': {
          const server = serverCalls.get(e.index);
          if (server) {
            serverCalls.delete(e.index);
            const call = anthropicServerToolCallToHub({ ...server.block, input: parsedInput(server.json, server.block.input) });
            return call ? [call] : [];
          }
          const index = toolForBlock.get(e.index);
          return index === undefined ? [] : [{ type: 'tool-call-end', index }];
        }
        case 'message_delta':
          if (e.delta.stop_reason) stopReason = e.delta.stop_reason;
          usage = mergeAnthropicUsage(usage, e.usage);
          return [];
        case 'message_stop':
          return finish();
        case 'ping':
          return [];
        case 'error':
          done = true;
          return [{ type: 'error', error: anthropicErrorToHub(anthropicErrorStatus(e.error.type), e) }];
      }
    },
    // A stream cut after message_delta still reports how it finished.
    end: () => (!done && stopReason !== null ? finish() : []),
    // push()'s own first step, for the converter's fast lane: a text delta changes no state.
    textDeltaOf: (event) => (done ? undefined : anthropicTextDeltaOf(event.data)),
  };
}

/** A server tool's streamed input, or the block's own when nothing streamed (or it is not JSON). */
function parsedInput(json: string, own: unknown): unknown {
  if (json === '') return own;
  try {
    return JSON.parse(json);
  } catch {
    return own;
  }
}

/** The prompt's counts as message_start told them, for a client format that shows them at the start. */
function startPromptUsage(usage: AnthropicUsage): { promptUsage?: PromptUsage } {
  const { inputTokens, cachedInputTokens, cacheWriteTokens } = anthropicUsageToHub(usage);
  if (inputTokens === undefined) return {};
  return { promptUsage: { inputTokens, ...(cachedInputTokens !== undefined ? { cachedInputTokens } : {}), ...(cacheWriteTokens !== undefined ? { cacheWriteTokens } : {}) } };
}

const isOptionalString = (value: unknown) => value === undefined || typeof value === 'string';
const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The events that make up nearly all of a stream (content_block_delta, ping, content_block_stop), checked by
 * hand against exactly what anthropicStreamEventSchema requires of them; null for anything else, which goes
 * through the schema. zod's safeParse on every event was ~6 % of the gateway's CPU on a translated stream.
 */
function commonStreamEvent(json: unknown): AnthropicStreamEvent | null {
  if (!isPlainObject(json)) return null;
  switch (json.type) {
    case 'content_block_delta': {
      const delta = json.delta;
      if (typeof json.index !== 'number' || !isPlainObject(delta) || typeof delta.type !== 'string') return null;
      if (!isOptionalString(delta.text) || !isOptionalString(delta.thinking) || !isOptionalString(delta.signature) || !isOptionalString(delta.partial_json)) return null;
      return json as AnthropicStreamEvent;
    }
    case 'content_block_stop':
      return typeof json.index === 'number' ? (json as AnthropicStreamEvent) : null;
    case 'ping':
    case 'message_stop':
      return json as AnthropicStreamEvent;
    // Once per stream each, but zod's cold path cost more than all of a stream's deltas (issue 16).
    case 'message_start': {
      const message = json.message;
      if (!isPlainObject(message) || typeof message.id !== 'string' || typeof message.model !== 'string' || !isNullishUsage(message.usage)) return null;
      return json as AnthropicStreamEvent;
    }
    case 'message_delta': {
      const delta = json.delta;
      if (!isPlainObject(delta) || !isNullishString(delta.stop_reason) || !isNullishString(delta.stop_sequence) || !isNullishUsage(json.usage)) return null;
      return json as AnthropicStreamEvent;
    }
    default:
      return null;
  }
}

const isNullishString = (value: unknown) => value === undefined || value === null || typeof value === 'string';
const isNullishNumber = (value: unknown) => value === undefined || value === null || typeof value === 'number';

/** What anthropicUsageSchema accepts, nullish: token counts are numbers or absent, details an object or absent. */
function isNullishUsage(usage: unknown): boolean {
  if (usage === undefined || usage === null) return true;
  if (!isPlainObject(usage)) return false;
  if (!isNullishNumber(usage.input_tokens) || !isNullishNumber(usage.output_tokens) || !isNullishNumber(usage.cache_creation_input_tokens) || !isNullishNumber(usage.cache_read_input_tokens)) return false;
  const details = usage.output_tokens_details;
  return details === undefined || details === null || (isPlainObject(details) && isNullishNumber(details.thinking_tokens));
}

export function anthropicMessagesStreamToHub(ctx: StreamToHubContext = {}): TransformStream<SseEvent, HubStreamPart> {
  return machineToTransformStream(createAnthropicMessagesStreamToHubMachine(ctx));
}

type PromptUsage = NonNullable<Extract<HubStreamPart, { type: 'start' }>['promptUsage']>;

/** message_start's input counts: the upstream's when known, else counted from the client's own body. */
function startUsage(promptUsage: PromptUsage | undefined, requestBody: unknown): Record<string, unknown> {
  if (promptUsage?.inputTokens !== undefined) {
    const { output_tokens: _output, ...input } = hubUsageToAnthropic(promptUsage);
    return input;
  }
  const body = typeof requestBody === 'object' && requestBody !== null ? (requestBody as Record<string, unknown>) : {};
  return { input_tokens: anthropicMessagesRequestFacts.promptTokens(body), cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

type OpenBlock = { kind: 'text' | 'thinking'; index: number; signed: boolean; family?: string | undefined; text?: string } | { kind: 'tool'; index: number; tool: number };

/**
 * Writes Anthropic's exact sequence: message_start, then per block content_block_start, deltas and
 * content_block_stop (a ping after the first block start, as Anthropic sends it), message_delta, message_stop.
 * One block is open at a time.
 */
export function createHubToAnthropicMessagesStreamMachine(ctx: HubToStreamContext): StreamMachine<HubStreamPart, SseEvent> {
  let started = false;
  let ended = false;
  let pinged = false;
  let nextIndex = 0;
  let open: OpenBlock | undefined;

  const ev = (type: string, body: Record<string, unknown>): SseEvent => ({ event: type, data: JSON.stringify({ type, ...body }) });
  const ping = (out: SseEvent[]) => {
    if (pinged) return;
    pinged = true;
    out.push(ev('ping', {}));
  };
  const start = (id: string, promptUsage: PromptUsage | undefined): SseEvent[] => {
    started = true;
    return [
      ev('message_start', {
        message: {
          id: anthropicMessageId(id),
          type: 'message',
          role: 'assistant',
          model: ctx.requestModel,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          // Anthropic fills input_tokens in here, and clients read it here (LangChain); the upstream's figure
          // when it has told it already (Gemini's first chunk), else the local count, which message_delta corrects.
          usage: { ...startUsage(promptUsage, ctx.requestBody), output_tokens: 0 },
        },
      }),
    ];
  };
  const close = (out: SseEvent[]) => {
    if (!open) return;
    // Reasoning nobody signed (OpenAI's) still gets a signature, marked, so it is not sent to Anthropic later.
    if (open.kind === 'thinking' && !open.signed) delta(out, { type: 'signature_delta', signature: signatureForClient(undefined, open.family, 'anthropic') });
    out.push(ev('content_block_stop', { index: open.index }));
    open = undefined;
  };
  const openBlock = (out: SseEvent[], block: Record<string, unknown>, next: OpenBlock) => {
    close(out);
    out.push(ev('content_block_start', { index: next.index, content_block: block }));
    ping(out);
    open = next;
  };
  const delta = (out: SseEvent[], d: Record<string, unknown>) => out.push(ev('content_block_delta', { index: open?.index ?? 0, delta: d }));

  return {
    push(part) {
      if (ended) return [];
      if (part.type === 'start') return started ? [] : start(part.id, part.promptUsage);
      const out: SseEvent[] = started || part.type === 'error' ? [] : start('gateway', undefined);
      switch (part.type) {
        case 'text-delta':
          if (open?.kind !== 'text') openBlock(out, { type: 'text', text: '' }, { kind: 'text', index: nextIndex++, signed: false, text: '' });
          if (open?.kind === 'text') open.text += part.delta;
          delta(out, { type: 'text_delta', text: part.delta });
          break;
        case 'citation':
          // Anthropic puts citations on the text block they belong to: the open one (Gemini's grounding comes
          // with the last of the text); with none open, an empty block carries them.
          if (open?.kind !== 'text') openBlock(out, { type: 'text', text: '' }, { kind: 'text', index: nextIndex++, signed: false, text: '' });
          delta(out, { type: 'citations_delta', citation: hubCitationToAnthropic(part.citation, open?.kind === 'text' ? open.text ?? '' : '') });
          break;
        case 'server-tool-call': {
          const block = hubServerToolCallToAnthropic(part);
          openBlock(out, { ...block, input: {} }, { kind: 'tool', index: nextIndex++, tool: -1 });
          delta(out, { type: 'input_json_delta', partial_json: JSON.stringify(block.input) });
          close(out);
          break;
        }
        case 'server-tool-result':
          openBlock(out, hubServerToolResultToAnthropic(part), { kind: 'tool', index: nextIndex++, tool: -1 });
          close(out);
          break;
        case 'reasoning-delta':
          if (part.redactedData !== undefined) {
            openBlock(out, { type: 'redacted_thinking', data: part.redactedData }, { kind: 'thinking', index: nextIndex++, signed: true });
            close(out);
            break;
          }
          // A signature ends its block: more reasoning after it is a new block.
          if (open?.kind !== 'thinking' || open.signed) {
            openBlock(out, { type: 'thinking', thinking: '', signature: '' }, { kind: 'thinking', index: nextIndex++, signed: false });
          }
          if (part.signatureFamily !== undefined && open?.kind === 'thinking') open.family = part.signatureFamily;
          if (part.delta !== '') delta(out, { type: 'thinking_delta', thinking: part.delta });
          if (part.signature !== undefined && open?.kind === 'thinking') {
            delta(out, { type: 'signature_delta', signature: signatureForClient(part.signature, part.signatureFamily, 'anthropic') });
            open.signed = true;
          }
          break;
        case 'tool-call-start':
          openBlock(out, { type: 'tool_use', id: encodeToolCallId(part.id, part.signature), name: part.name, input: {} }, { kind: 'tool', index: nextIndex++, tool: part.index });
          break;
        case 'tool-call-delta':
          if (open?.kind === 'tool' && open.tool === part.index) delta(out, { type: 'input_json_delta', partial_json: part.argumentsDelta });
          else ctx.onWarning?.({ type: 'dropped', feature: `tool call ${part.index}`, detail: 'arguments arrived after the tool call block closed; Anthropic streams one block at a time.' });
          break;
        case 'tool-call-end':
          if (open?.kind === 'tool' && open.tool === part.index) close(out);
          break;
        case 'finish':
          ended = true;
          close(out);
          ping(out);
          out.push(ev('message_delta', {
            delta: { stop_reason: hubFinishReasonToAnthropic(part.finishReason), stop_sequence: null },
            usage: hubUsageToAnthropic(part.usage),
          }));
          out.push(ev('message_stop', {}));
          break;
        case 'error':
          ended = true;
          out.push(hubErrorToAnthropicStreamEvent(part.error));
          break;
      }
      return out;
    },
    end: () => [],
  };
}

export function hubToAnthropicMessagesStream(ctx: HubToStreamContext): TransformStream<HubStreamPart, SseEvent> {
  return machineToTransformStream(createHubToAnthropicMessagesStreamMachine(ctx));
}
