// OpenAI chat.completion.chunk streams ⇄ hub stream parts, as small state machines.
import type { HubUsage } from '../../hub/hub-response.ts';
import { unreportedUsage } from '../../hub/hub-response.ts';
import {
  machineToTransformStream,
  parseEventJson,
  type HubStreamPart,
  type HubToStreamContext,
  type SseEvent,
  type StreamMachine,
  type StreamToHubContext,
  type TextDeltaWriter,
} from '../../hub/hub-stream.ts';
import { hubErrorToOpenaiStreamEvent, openaiErrorToHub } from './openai-chat-error.ts';
import { hubFinishReasonToOpenai, mapOpenaiFinishReason } from './openai-chat-finish-reason.ts';
import { openaiChatChunkSchema } from './openai-chat-schema.ts';
import { hubUsageToOpenai, openaiUsageToHub } from './openai-chat-usage.ts';
import { encodeToolCallId } from '../../hub/hub-tool-call-ids.ts';
import { isPlainJsonText } from '../shared/json-string.ts';

/**
 * Reads upstream chunks. The finish part waits for the end of the stream ([DONE]) because OpenAI sends
 * usage in a chunk of its own after the one carrying finish_reason.
 */
export function createOpenaiChatStreamToHubMachine(ctx: StreamToHubContext = {}): StreamMachine<SseEvent, HubStreamPart> {
  let started = false;
  let done = false;
  let finishRaw: string | null = null;
  let usage: HubUsage | undefined;
  // OpenAI's tool_calls[].index → the hub's index, in order of appearance; open ones await their end.
  const toolIndex = new Map<number, number>();
  const openTools = new Set<number>();

  const closeTools = (out: HubStreamPart[]) => {
    for (const index of openTools) out.push({ type: 'tool-call-end', index });
    openTools.clear();
  };
  const finish = (): HubStreamPart[] => {
    if (done || !started) return [];
    done = true;
    const out: HubStreamPart[] = [];
    closeTools(out);
    out.push({ type: 'finish', finishReason: mapOpenaiFinishReason(finishRaw), usage: usage ?? unreportedUsage() });
    return out;
  };

  return {
    push(event) {
      if (done) return [];
      if (event.data.trim() === '[DONE]') return finish();
      const json = parseEventJson(event, ctx.onWarning);
      if (json === undefined) return [];
      if (typeof json === 'object' && json !== null && 'error' in json) {
        done = true;
        return [{ type: 'error', error: openaiErrorToHub(500, json) }];
      }
      const parsed = openaiChatChunkSchema.safeParse(json);
      if (!parsed.success) {
        ctx.onWarning?.({ type: 'dropped', feature: 'chunk', detail: `skipped a chunk that is not a chat.completion.chunk: ${parsed.error.issues[0]?.message ?? ''}` });
        return [];
      }
      const chunk = parsed.data;
      const out: HubStreamPart[] = [];
      if (!started) {
        started = true;
        out.push({ type: 'start', id: chunk.id, model: chunk.model ?? '' });
      }
      if (chunk.usage) usage = openaiUsageToHub(chunk.usage);
      const choice = chunk.choices.find((c) => c.index === 0);
      if (!choice) return out;
      const delta = choice.delta;
      if (delta?.reasoning_content) out.push({ type: 'reasoning-delta', delta: delta.reasoning_content });
      if (delta?.content) out.push({ type: 'text-delta', delta: delta.content });
      if (delta?.refusal) out.push({ type: 'text-delta', delta: delta.refusal });
      for (const call of delta?.tool_calls ?? []) {
        let index = toolIndex.get(call.index);
        if (index === undefined) {
          index = toolIndex.size;
          toolIndex.set(call.index, index);
          // Calls stream one after another: a new one means the previous is complete.
          closeTools(out);
          openTools.add(index);
          out.push({ type: 'tool-call-start', index, id: call.id ?? `call_${index}`, name: call.function?.name ?? '' });
        }
        const args = call.function?.arguments;
        if (args) out.push({ type: 'tool-call-delta', index, argumentsDelta: args });
      }
      if (choice.finish_reason) {
        finishRaw = choice.finish_reason;
        closeTools(out);
      }
      return out;
    },
    // A stream cut before [DONE] still reports how it finished, when the finish chunk arrived.
    end: () => (finishRaw !== null ? finish() : []),
  };
}

export function openaiChatStreamToHub(ctx: StreamToHubContext = {}): TransformStream<SseEvent, HubStreamPart> {
  return machineToTransformStream(createOpenaiChatStreamToHubMachine(ctx));
}

const TEXT_TAIL = '"},"logprobs":null,"finish_reason":null}]}';
const SSE_TEXT_TAIL = `${TEXT_TAIL}\n\n`;

/** Writes chat.completion.chunk events: role first, then deltas, a finish chunk, usage if asked, [DONE]. */
export function createHubToOpenaiChatStreamMachine(ctx: HubToStreamContext): StreamMachine<HubStreamPart, SseEvent> & TextDeltaWriter {
  let id = '';
  let started = false;
  let ended = false;
  const created = ctx.created ?? Math.floor(Date.now() / 1000);

  // Every chunk has the same envelope: serialised once per stream (when the id is known), then each chunk is
  // that prefix, its delta and a fixed tail. Byte for byte what JSON.stringify of the whole chunk gives
  // (same keys, same order); serialising the whole object per event was ~12 % of a translated stream's CPU.
  let prefix = '';
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null): SseEvent => ({
    data: `${prefix}${JSON.stringify(delta)},"logprobs":null,"finish_reason":${finishReason === null ? 'null' : JSON.stringify(finishReason)}}]}`,
  });
  // The most frequent chunk, a text delta: JSON.stringify({ content }) written without the object, and a
  // text that needs no escape written between a fixed head and tail (two string joins per event).
  let textHead = '';
  /** textHead behind the SSE field name, for the converter's fast lane (textDeltaSse). */
  let sseTextHead = '';
  const textChunk = (text: string): SseEvent => ({
    data: isPlainJsonText(text) ? textHead + text + TEXT_TAIL : `${prefix}{"content":${JSON.stringify(text)}},"logprobs":null,"finish_reason":null}]}`,
  });
  const start = (partId: string): SseEvent[] => {
    started = true;
    id = partId.startsWith('chatcmpl-') ? partId : `chatcmpl-${partId}`;
    prefix = `${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: ctx.requestModel }).slice(0, -1)},"choices":[{"index":0,"delta":`;
    textHead = `${prefix}{"content":"`;
    sseTextHead = `data: ${textHead}`;
    return [chunk({ role: 'assistant', content: '' })];
  };

  return {
    push(part) {
      if (ended) return [];
      if (part.type === 'start') return started ? [] : start(part.id);
      const out: SseEvent[] = started || part.type === 'error' ? [] : start('gateway');
      switch (part.type) {
        case 'text-delta':
          out.push(textChunk(part.delta));
          break;
        case 'reasoning-delta':
          // Signatures and redacted blocks have no place in OpenAI chat; only reasoning text is shown.
          if (part.delta !== '') out.push(chunk({ reasoning_content: part.delta }));
          break;
        case 'tool-call-start':
          out.push(chunk({ tool_calls: [{ index: part.index, id: encodeToolCallId(part.id, part.signature), type: 'function', function: { name: part.name, arguments: '' } }] }));
          break;
        case 'tool-call-delta':
          out.push(chunk({ tool_calls: [{ index: part.index, function: { arguments: part.argumentsDelta } }] }));
          break;
        case 'tool-call-end':
          break;
        case 'finish':
          ended = true;
          out.push(chunk({}, hubFinishReasonToOpenai(part.finishReason)));
          if (ctx.includeUsage) {
            out.push({ data: JSON.stringify({ id, object: 'chat.completion.chunk', created, model: ctx.requestModel, choices: [], usage: hubUsageToOpenai(part.usage) }) });
          }
          out.push({ data: '[DONE]' });
          break;
        case 'error':
          ended = true;
          out.push(hubErrorToOpenaiStreamEvent(part.error));
          break;
      }
      return out;
    },
    end: () => [],
    textDeltaSse(delta) {
      // What push() gives for a text-delta part of a started stream, framed as the relay frames an event.
      return started && !ended && isPlainJsonText(delta) ? sseTextHead + delta + SSE_TEXT_TAIL : undefined;
    },
  };
}

export function hubToOpenaiChatStream(ctx: HubToStreamContext): TransformStream<HubStreamPart, SseEvent> {
  return machineToTransformStream(createHubToOpenaiChatStreamMachine(ctx));
}
