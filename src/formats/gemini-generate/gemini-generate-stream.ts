// Gemini streamGenerateContent (alt=sse) ⇄ hub stream parts. Each event is a whole GenerateContentResponse
// holding the next parts; function calls arrive whole, so going out they are buffered until complete.
import type { HubUsage } from '../../hub/hub-response.ts';
import { unreportedUsage } from '../../hub/hub-response.ts';
import {
  defaultGenerateId,
  machineToTransformStream,
  parseEventJson,
  type HubStreamPart,
  type HubToStreamContext,
  type SseEvent,
  type StreamMachine,
  type StreamToHubContext,
} from '../../hub/hub-stream.ts';
import { geminiErrorToHub, hubErrorToGeminiStreamEvent } from './gemini-generate-error.ts';
import { hubFinishReasonToGemini, mapGeminiFinishReason } from './gemini-generate-finish-reason.ts';
import { geminiResponseSchema } from './gemini-generate-schema.ts';
import { geminiUsageToHub, hubUsageToGemini } from './gemini-generate-usage.ts';
import { signatureForClient } from '../../hub/hub-signatures.ts';
import { geminiGroundingToHub } from './gemini-generate-grounding.ts';
import { fetchCount, geminiUrlContextToHub } from './gemini-generate-url-context.ts';

/** The finish part waits for the end of the stream: usage may come with or after the finishReason. */
export function createGeminiGenerateStreamToHubMachine(ctx: StreamToHubContext = {}): StreamMachine<SseEvent, HubStreamPart> {
  const generateId = ctx.generateId ?? (() => defaultGenerateId());
  let started = false;
  let done = false;
  let finishRaw: string | null = null;
  let usage: HubUsage | undefined;
  let tools = 0;
  let promptBlocked = false;
  // The answer's text so far: grounding supports (in the last chunk) count their offsets in it.
  let text = '';
  let searches = 0;
  let fetches = 0;

  return {
    push(event) {
      if (done) return [];
      let json = parseEventJson(event, ctx.onWarning);
      if (json === undefined) return [];
      if (Array.isArray(json)) json = json[0];
      if (typeof json === 'object' && json !== null && 'error' in json) {
        done = true;
        const code = (json as { error: { code?: unknown } }).error.code;
        return [{ type: 'error', error: geminiErrorToHub(typeof code === 'number' ? code : 500, json) }];
      }
      const parsed = geminiResponseSchema.safeParse(json);
      if (!parsed.success) {
        ctx.onWarning?.({ type: 'dropped', feature: 'chunk', detail: 'skipped a chunk that is not a GenerateContentResponse.' });
        return [];
      }
      const chunk = parsed.data;
      const out: HubStreamPart[] = [];
      if (!started) {
        started = true;
        const first = chunk.usageMetadata ? geminiUsageToHub(chunk.usageMetadata) : {};
        out.push({
          type: 'start', id: chunk.responseId ?? generateId(), model: chunk.modelVersion ?? '',
          ...(first.inputTokens !== undefined ? { promptUsage: { inputTokens: first.inputTokens, ...(first.cachedInputTokens !== undefined ? { cachedInputTokens: first.cachedInputTokens } : {}) } } : {}),
        });
      }
      if (chunk.usageMetadata) usage = geminiUsageToHub(chunk.usageMetadata);
      const candidate = chunk.candidates?.[0];
      // URL context comes once, on the chunk Gemini attaches it to: the pages were read before the answer,
      // so each is a hosted fetch ahead of that chunk's text.
      if (fetches === 0) {
        const read = geminiUrlContextToHub((candidate as { urlContextMetadata?: unknown } | undefined)?.urlContextMetadata, generateId);
        fetches = fetchCount(read);
        out.push(...read);
      }
      for (const part of candidate?.content?.parts ?? []) {
        if (part.functionCall) {
          const index = tools++;
          out.push({
            type: 'tool-call-start',
            index,
            id: part.functionCall.id ?? generateId(),
            name: part.functionCall.name,
            ...(part.thoughtSignature ? { signature: part.thoughtSignature } : {}),
          });
          out.push({ type: 'tool-call-delta', index, argumentsDelta: JSON.stringify(part.functionCall.args ?? {}) });
          out.push({ type: 'tool-call-end', index });
        } else if (part.text !== undefined && part.thought) {
          out.push({ type: 'reasoning-delta', delta: part.text, ...(part.thoughtSignature ? { signature: part.thoughtSignature, signatureFamily: 'google' } : {}) });
        } else if (part.text) {
          text += part.text;
          out.push({ type: 'text-delta', delta: part.text });
        }
      }
      // Search grounding comes with the last of the text: its citations while the text is still open, then
      // the search as a hosted tool's call and result.
      const grounding = geminiGroundingToHub((candidate as { groundingMetadata?: unknown } | undefined)?.groundingMetadata, text, generateId);
      if (grounding && searches === 0) {
        searches = grounding.searches;
        for (const citation of grounding.citations) out.push({ type: 'citation', citation });
        out.push(grounding.call, grounding.result);
      }
      if (candidate?.finishReason) finishRaw = candidate.finishReason;
      // A prompt blocked before generation has no candidate, only promptFeedback.blockReason.
      if (!candidate && chunk.promptFeedback?.blockReason) {
        finishRaw = chunk.promptFeedback.blockReason;
        promptBlocked = true;
      }
      return out;
    },
    end() {
      if (done || !started) return [];
      done = true;
      const finishReason = promptBlocked ? { unified: 'content-filter' as const, raw: finishRaw } : mapGeminiFinishReason(finishRaw, tools > 0);
      const reported = usage ?? unreportedUsage();
      const hosted = { ...(searches > 0 ? { webSearches: searches } : {}), ...(fetches > 0 ? { webFetches: fetches } : {}) };
      return [{ type: 'finish', finishReason, usage: searches > 0 || fetches > 0 ? { ...reported, ...hosted } : reported }];
    },
  };
}

export function geminiGenerateStreamToHub(ctx: StreamToHubContext = {}): TransformStream<SseEvent, HubStreamPart> {
  return machineToTransformStream(createGeminiGenerateStreamToHubMachine(ctx));
}

/** Writes `data:` chunks of GenerateContentResponse, the last one with finishReason and usageMetadata. */
export function createHubToGeminiGenerateStreamMachine(ctx: HubToStreamContext): StreamMachine<HubStreamPart, SseEvent> {
  let id = '';
  let ended = false;
  const calls = new Map<number, { id: string; name: string; args: string; signature?: string }>();

  const chunk = (parts: Record<string, unknown>[], extra: Record<string, unknown> = {}, tail: Record<string, unknown> = {}): SseEvent => ({
    data: JSON.stringify({
      candidates: [{ content: { role: 'model', parts }, ...extra, index: 0 }],
      ...tail,
      modelVersion: ctx.requestModel,
      responseId: id,
    }),
  });
  const callChunk = (index: number): SseEvent | undefined => {
    const call = calls.get(index);
    if (!call) return undefined;
    calls.delete(index);
    let args: unknown = {};
    try {
      args = call.args.trim() === '' ? {} : JSON.parse(call.args);
    } catch {
      ctx.onWarning?.({ type: 'dropped', feature: `tool call ${call.name}`, detail: 'its arguments were not valid JSON; sent as _raw_arguments.' });
      args = { _raw_arguments: call.args };
    }
    return chunk([{ functionCall: { id: call.id, name: call.name, args }, ...(call.signature ? { thoughtSignature: call.signature } : {}) }]);
  };

  return {
    push(part) {
      if (ended) return [];
      switch (part.type) {
        case 'start':
          id = part.id;
          return [];
        case 'text-delta':
          return part.delta === '' ? [] : [chunk([{ text: part.delta }])];
        case 'reasoning-delta':
          if (part.redactedData !== undefined || (part.delta === '' && part.signature === undefined)) return [];
          return [chunk([{ text: part.delta, thought: true, ...(part.signature ? { thoughtSignature: signatureForClient(part.signature, part.signatureFamily, 'google') } : {}) }])];
        case 'tool-call-start':
          calls.set(part.index, { id: part.id, name: part.name, args: '', ...(part.signature ? { signature: part.signature } : {}) });
          return [];
        case 'tool-call-delta': {
          const call = calls.get(part.index);
          if (call) call.args += part.argumentsDelta;
          return [];
        }
        case 'tool-call-end': {
          const event = callChunk(part.index);
          return event ? [event] : [];
        }
        case 'finish': {
          ended = true;
          const out: SseEvent[] = [];
          for (const index of [...calls.keys()]) {
            const event = callChunk(index);
            if (event) out.push(event);
          }
          out.push(chunk([{ text: '' }], { finishReason: hubFinishReasonToGemini(part.finishReason) }, { usageMetadata: hubUsageToGemini(part.usage) }));
          return out;
        }
        case 'error':
          ended = true;
          return [hubErrorToGeminiStreamEvent(part.error)];
        default:
          // Another provider's hosted search (its call, result and citations) has no place in a Gemini answer.
          return [];
      }
    },
    end: () => [],
  };
}

export function hubToGeminiGenerateStream(ctx: HubToStreamContext): TransformStream<HubStreamPart, SseEvent> {
  return machineToTransformStream(createHubToGeminiGenerateStreamMachine(ctx));
}
