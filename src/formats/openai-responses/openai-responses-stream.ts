// OpenAI Responses streams ⇄ hub stream parts, as small state machines. Every event is a named SSE event
// whose data repeats the type and carries an increasing sequence_number, as OpenAI sends them.
import { wantsEncryptedReasoning } from './openai-responses-include.ts';
import { upstreamStatusError } from '../../hub/hub-errors.ts';
import type { HubFinishReason, HubServerToolCallPart, HubServerToolResultPart, HubUsage } from '../../hub/hub-response.ts';
import type { HubCitation } from '../../hub/hub-request.ts';
import { urlCitation, webSearchCallItem, webSearchItemId } from './openai-responses-web-search.ts';
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
import { encodeToolCallId } from '../../hub/hub-tool-call-ids.ts';
import { hubErrorToOpenaiResponsesStreamEvent } from './openai-responses-error.ts';
import { hubFinishReasonToResponses, mapResponsesStatus } from './openai-responses-finish-reason.ts';
import { clientToolCallItem, CustomInputReader, customToolInput, toolCallItemId } from './openai-responses-tool-calls.ts';
import { clientToolsOf, type ClientTool } from './openai-responses-tools.ts';
import {
  itemIdBase,
  messageItem,
  messageItemId,
  outputTextPart,
  reasoningItem,
  reasoningItemId,
  responseEnvelope,
  responsesId,
  type ItemStatus,
  type ReasoningSeal,
} from './openai-responses-items.ts';
import { responsesStreamEventSchema } from './openai-responses-schema.ts';
import { openaiResponsesUsageToHub } from './openai-responses-usage.ts';

// ---- Responses events → hub (for a Responses upstream) ----------------------------------------------------

/** The HTTP status an `error` event without one stands for. */
const statusForStreamError = (code: string | null | undefined) => (code === 'rate_limit_exceeded' ? 429 : code === 'invalid_prompt' ? 400 : 500);

/**
 * Reads an upstream Responses stream. Text, refusals, reasoning summaries (a new summary part is separated
 * by a blank line, as the whole-response reader joins them) and function calls by output index; the finish
 * comes from response.completed / response.incomplete, a response.failed or `error` event becomes an error.
 */
export function createOpenaiResponsesStreamToHubMachine(ctx: StreamToHubContext = {}): StreamMachine<SseEvent, HubStreamPart> {
  let started = false;
  let done = false;
  // output_index → the hub's tool-call index, and whether its arguments arrived as deltas.
  const tools = new Map<number, { index: number; streamed: boolean; ended: boolean }>();

  return {
    push(event) {
      if (done) return [];
      const json = parseEventJson(event, ctx.onWarning);
      if (json === undefined) return [];
      const parsed = responsesStreamEventSchema.safeParse(json);
      if (!parsed.success) {
        ctx.onWarning?.({ type: 'dropped', feature: event.event ?? 'event', detail: 'skipped an event that is not a Responses stream event.' });
        return [];
      }
      const e = parsed.data;
      const out: HubStreamPart[] = [];
      if (!started && e.type !== 'error') {
        started = true;
        out.push({ type: 'start', id: e.response?.id ?? '', model: e.response?.model ?? '' });
      }
      const outputIndex = e.output_index ?? -1;
      const item = e.item as Record<string, unknown> | null | undefined;
      switch (e.type) {
        case 'response.output_text.delta':
        case 'response.refusal.delta':
          if (e.delta) out.push({ type: 'text-delta', delta: e.delta });
          break;
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta':
          if (e.delta) out.push({ type: 'reasoning-delta', delta: e.delta });
          break;
        case 'response.reasoning_summary_part.added':
          if (e.summary_index) out.push({ type: 'reasoning-delta', delta: '\n\n' });
          break;
        case 'response.output_item.added':
          if (item?.type === 'function_call') {
            const index = tools.size;
            tools.set(outputIndex, { index, streamed: false, ended: false });
            out.push({ type: 'tool-call-start', index, id: String(item.call_id ?? `call_${index}`), name: String(item.name ?? '') });
          }
          break;
        case 'response.function_call_arguments.delta': {
          const tool = tools.get(outputIndex);
          if (tool && e.delta) {
            tool.streamed = true;
            out.push({ type: 'tool-call-delta', index: tool.index, argumentsDelta: e.delta });
          }
          break;
        }
        case 'response.output_item.done': {
          const tool = tools.get(outputIndex);
          if (!tool || tool.ended || item?.type !== 'function_call') break;
          tool.ended = true;
          // Arguments that never came as deltas come whole with the item.
          const args = typeof item.arguments === 'string' ? item.arguments : '';
          if (!tool.streamed && args !== '') out.push({ type: 'tool-call-delta', index: tool.index, argumentsDelta: args });
          out.push({ type: 'tool-call-end', index: tool.index });
          break;
        }
        case 'response.completed':
        case 'response.incomplete': {
          done = true;
          const response = e.response;
          for (const tool of tools.values()) {
            if (!tool.ended) out.push({ type: 'tool-call-end', index: tool.index });
          }
          const status = response?.status ?? (e.type === 'response.completed' ? 'completed' : 'incomplete');
          out.push({
            type: 'finish',
            finishReason: mapResponsesStatus(status, response?.incomplete_details?.reason, tools.size > 0),
            usage: openaiResponsesUsageToHub(response?.usage),
          });
          break;
        }
        case 'response.failed': {
          done = true;
          const error = e.response?.error;
          out.push({
            type: 'error',
            error: upstreamStatusError(statusForStreamError(error?.code), { message: error?.message ?? 'The upstream response failed.', code: error?.code ?? null }),
          });
          break;
        }
        case 'error':
          done = true;
          out.push({
            type: 'error',
            error: upstreamStatusError(statusForStreamError(e.code), { message: e.message ?? 'The upstream stream failed.', code: e.code ?? null, param: e.param ?? null }),
          });
          break;
      }
      return out;
    },
    end: () => [],
  };
}

export function openaiResponsesStreamToHub(ctx: StreamToHubContext = {}): TransformStream<SseEvent, HubStreamPart> {
  return machineToTransformStream(createOpenaiResponsesStreamToHubMachine(ctx));
}

// ---- hub → Responses events -------------------------------------------------------------------------------

interface OpenText {
  kind: 'message' | 'reasoning';
  index: number;
  itemId: string;
  text: string;
  /** Reasoning: whether the summary part was announced (only once there is text). */
  partOpen: boolean;
  /** A message's url_citation annotations so far. */
  annotations: Record<string, unknown>[];
  /** Where this message starts in the whole answer's text (citations with spans count from the answer's start). */
  answerStart: number;
  /** Citations without a span (Anthropic's, which come before the text they cite) and where that text starts. */
  pending: { citations: HubCitation[]; start: number } | null;
}

interface OpenCall {
  /** The client's tool it calls: a function (with its namespace), a custom tool, a shell. */
  tool: ClientTool | undefined;
  /** A custom tool's input, read out of the streamed arguments. */
  input?: CustomInputReader;
  index: number;
  itemId: string;
  callId: string;
  name: string;
  args: string;
}

/**
 * Writes the event sequence OpenAI's SDK accumulates: response.created and response.in_progress; per item
 * output_item.added … output_item.done (a message with its content part and output_text deltas, a reasoning
 * item with a summary part and summary text deltas, a function_call with argument deltas); then
 * response.completed, or response.incomplete when the answer was cut, carrying the whole response and usage.
 * One message or reasoning item is open at a time; function calls may interleave, keyed by the hub's index.
 */
export function createHubToOpenaiResponsesStreamMachine(ctx: HubToStreamContext): StreamMachine<HubStreamPart, SseEvent> {
  const created = ctx.created ?? Math.floor(Date.now() / 1000);
  let seq = 0;
  let id = '';
  let base = '';
  let started = false;
  let ended = false;
  const output: Record<string, unknown>[] = [];
  let open: OpenText | null = null;
  const calls = new Map<number, OpenCall>();
  // Hosted searches whose result has not come yet, by the hub's call id.
  const searches = new Map<string, { index: number; itemId: string; queries: string[]; url?: string }>();
  let answerText = 0;
  // A reasoning item's seal (encrypted_content) goes out only when the request's include asks for it.
  const keepSeal = wantsEncryptedReasoning(ctx.requestBody);
  const clientTools = clientToolsOf(ctx.requestBody);

  const emit = (out: SseEvent[], type: string, fields: Record<string, unknown>) => {
    out.push({ event: type, data: JSON.stringify({ type, ...fields, sequence_number: seq++ }) });
  };
  const envelope = (status: 'in_progress' | 'completed' | 'incomplete' | 'failed', finish: ReturnType<typeof hubFinishReasonToResponses> | null, usage: HubUsage | null, error?: { code: string; message: string }) =>
    responseEnvelope({ id, createdAt: created, model: ctx.requestModel, status, incompleteDetails: finish?.incomplete_details ?? null, output, usage, error: error ?? null, requestBody: ctx.requestBody });

  const start = (out: SseEvent[], partId: string) => {
    started = true;
    id = responsesId(partId);
    base = itemIdBase(id);
    emit(out, 'response.created', { response: envelope('in_progress', null, null) });
    emit(out, 'response.in_progress', { response: envelope('in_progress', null, null) });
  };

  const addItem = (out: SseEvent[], item: Record<string, unknown>) => {
    output.push(item);
    emit(out, 'response.output_item.added', { output_index: output.length - 1, item });
  };
  const doneItem = (out: SseEvent[], index: number, item: Record<string, unknown>) => {
    output[index] = item;
    emit(out, 'response.output_item.done', { output_index: index, item });
  };

  const openText = (out: SseEvent[], kind: OpenText['kind']): OpenText => {
    if (open?.kind === kind) return open;
    closeText(out, 'completed', {});
    const index = output.length;
    const at = { index, text: '', partOpen: false, annotations: [], answerStart: answerText, pending: null };
    if (kind === 'message') {
      const itemId = messageItemId(base, index);
      addItem(out, messageItem(itemId, null, 'in_progress'));
      emit(out, 'response.content_part.added', { item_id: itemId, output_index: index, content_index: 0, part: outputTextPart('') });
      open = { kind, itemId, ...at, partOpen: true };
    } else {
      const itemId = reasoningItemId(base, index);
      addItem(out, reasoningItem(itemId, ''));
      open = { kind, itemId, ...at };
    }
    return open;
  };

  const closeText = (out: SseEvent[], status: ItemStatus, seal: ReasoningSeal) => {
    const item = open;
    if (!item) return;
    open = null;
    const where = { item_id: item.itemId, output_index: item.index };
    if (item.kind === 'message') {
      settleCitations(out, item);
      emit(out, 'response.output_text.done', { ...where, content_index: 0, text: item.text, logprobs: [] });
      emit(out, 'response.content_part.done', { ...where, content_index: 0, part: outputTextPart(item.text, item.annotations) });
      doneItem(out, item.index, messageItem(item.itemId, item.text, status, item.annotations));
      return;
    }
    if (item.partOpen) {
      emit(out, 'response.reasoning_summary_text.done', { ...where, summary_index: 0, text: item.text });
      emit(out, 'response.reasoning_summary_part.done', { ...where, summary_index: 0, part: { type: 'summary_text', text: item.text } });
    }
    doneItem(out, item.index, reasoningItem(item.itemId, item.text, keepSeal ? seal : {}));
  };

  const annotate = (out: SseEvent[], item: OpenText, annotation: Record<string, unknown>) => {
    item.annotations.push(annotation);
    emit(out, 'response.output_text.annotation.added', { item_id: item.itemId, output_index: item.index, content_index: 0, annotation_index: item.annotations.length - 1, annotation });
  };
  /** Citations without a span cite the text written since they came. */
  const settleCitations = (out: SseEvent[], item: OpenText) => {
    const pending = item.pending;
    if (!pending) return;
    item.pending = null;
    for (const citation of pending.citations) annotate(out, item, urlCitation(citation, pending.start, item.text.length - pending.start));
  };
  const cite = (out: SseEvent[], citation: HubCitation) => {
    const item = openText(out, 'message');
    if (citation.startIndex !== undefined && citation.endIndex !== undefined) {
      annotate(out, item, urlCitation({ ...citation, startIndex: Math.max(0, citation.startIndex - item.answerStart), endIndex: Math.max(0, citation.endIndex - item.answerStart) }, 0, 0));
      return;
    }
    if (item.pending && item.text.length > item.pending.start) settleCitations(out, item);
    (item.pending ??= { citations: [], start: item.text.length }).citations.push(citation);
  };

  const startSearch = (out: SseEvent[], call: HubServerToolCallPart) => {
    closeText(out, 'completed', {});
    const index = output.length;
    const itemId = webSearchItemId(base, index);
    searches.set(call.id, { index, itemId, queries: call.queries, ...(call.url !== undefined ? { url: call.url } : {}) });
    addItem(out, webSearchCallItem(itemId, call, [], 'in_progress'));
    emit(out, 'response.web_search_call.in_progress', { item_id: itemId, output_index: index });
    emit(out, 'response.web_search_call.searching', { item_id: itemId, output_index: index });
  };
  const endSearch = (out: SseEvent[], callId: string, sources: HubServerToolResultPart['sources'], failed: boolean) => {
    const search = searches.get(callId);
    if (!search) return;
    searches.delete(callId);
    emit(out, 'response.web_search_call.completed', { item_id: search.itemId, output_index: search.index });
    doneItem(out, search.index, webSearchCallItem(search.itemId, search, sources, failed ? 'failed' : 'completed'));
  };

  const reasoningText = (out: SseEvent[], delta: string) => {
    const item = openText(out, 'reasoning');
    if (delta === '') return;
    const where = { item_id: item.itemId, output_index: item.index, summary_index: 0 };
    if (!item.partOpen) {
      item.partOpen = true;
      emit(out, 'response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } });
    }
    item.text += delta;
    emit(out, 'response.reasoning_summary_text.delta', { ...where, delta });
  };

  const callItem = (call: OpenCall, status: ItemStatus) => clientToolCallItem(call.tool, call.itemId, call.callId, call.name, call.args, status);

  // A custom tool's input is the string inside the arguments the upstream streams as JSON: decoded as it
  // comes (CustomInputReader), the rest when the call ends. Shell calls have no delta events on the wire.
  const closeCall = (out: SseEvent[], hubIndex: number, call: OpenCall) => {
    calls.delete(hubIndex);
    const where = { item_id: call.itemId, output_index: call.index };
    const kind = call.tool?.kind ?? 'function';
    if (kind === 'function') emit(out, 'response.function_call_arguments.done', { ...where, name: call.tool && 'name' in call.tool ? call.tool.name : call.name, arguments: call.args });
    else if (kind === 'custom') {
      const input = customToolInput(call.args);
      const sent = call.input?.text ?? '';
      // What was streamed is a prefix of the input; a shape the reader did not follow goes out whole here.
      const rest = input.startsWith(sent) ? input.slice(sent.length) : input;
      if (rest !== '') emit(out, 'response.custom_tool_call_input.delta', { ...where, delta: rest });
      emit(out, 'response.custom_tool_call_input.done', { ...where, input });
    }
    doneItem(out, call.index, callItem(call, 'completed'));
  };

  /** For a failed response: open items as delivered so far, incomplete, without their done events. */
  const sealOpenItems = () => {
    if (open) output[open.index] = open.kind === 'message' ? messageItem(open.itemId, open.text, 'incomplete', open.annotations) : reasoningItem(open.itemId, open.text);
    for (const call of calls.values()) output[call.index] = callItem(call, 'incomplete');
  };

  const finish = (out: SseEvent[], reason: HubFinishReason, usage: HubUsage) => {
    const result = hubFinishReasonToResponses(reason);
    // A cut answer leaves its last item, if it is a message, incomplete (as hubToOpenaiResponsesResponse does).
    const lastIsOpen = open !== null && open.index === output.length - 1;
    closeText(out, result.status === 'incomplete' && lastIsOpen ? 'incomplete' : 'completed', {});
    for (const [hubIndex, call] of [...calls]) closeCall(out, hubIndex, call);
    for (const callId of [...searches.keys()]) endSearch(out, callId, [], false);
    emit(out, result.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: envelope(result.status, result, usage) });
  };

  return {
    push(part) {
      if (ended) return [];
      const out: SseEvent[] = [];
      if (part.type === 'start') {
        if (!started) start(out, part.id);
        return out;
      }
      if (!started && part.type !== 'error') start(out, defaultGenerateId('gw'));
      switch (part.type) {
        case 'text-delta': {
          if (part.delta === '') break;
          const item = openText(out, 'message');
          item.text += part.delta;
          answerText += part.delta.length;
          emit(out, 'response.output_text.delta', { item_id: item.itemId, output_index: item.index, content_index: 0, delta: part.delta, logprobs: [] });
          break;
        }
        case 'reasoning-delta':
          if (part.redactedData !== undefined) {
            // A redacted block is whole on its own: an item with no summary, its data sealed.
            closeText(out, 'completed', {});
            openText(out, 'reasoning');
            closeText(out, 'completed', { redactedData: part.redactedData });
          } else if (part.delta !== '' || part.signature) {
            reasoningText(out, part.delta);
            if (part.signature) closeText(out, 'completed', { signature: part.signature });
          }
          break;
        case 'tool-call-start': {
          closeText(out, 'completed', {});
          const index = output.length;
          const tool = clientTools.get(part.name);
          const call: OpenCall = { tool, index, itemId: toolCallItemId(tool, base, index), callId: encodeToolCallId(part.id, part.signature), name: part.name, args: '', ...(tool?.kind === 'custom' ? { input: new CustomInputReader() } : {}) };
          calls.set(part.index, call);
          addItem(out, callItem(call, 'in_progress'));
          break;
        }
        case 'tool-call-delta': {
          const call = calls.get(part.index);
          if (!call || part.argumentsDelta === '') break;
          call.args += part.argumentsDelta;
          if ((call.tool?.kind ?? 'function') === 'function') emit(out, 'response.function_call_arguments.delta', { item_id: call.itemId, output_index: call.index, delta: part.argumentsDelta });
          else if (call.input) {
            const delta = call.input.more(call.args);
            if (delta !== '') emit(out, 'response.custom_tool_call_input.delta', { item_id: call.itemId, output_index: call.index, delta });
          }
          break;
        }
        case 'tool-call-end': {
          const call = calls.get(part.index);
          if (call) closeCall(out, part.index, call);
          break;
        }
        case 'citation':
          cite(out, part.citation);
          break;
        case 'server-tool-call':
          startSearch(out, part);
          break;
        case 'server-tool-result':
          endSearch(out, part.callId, part.sources, part.errorCode !== undefined);
          break;
        case 'finish':
          ended = true;
          finish(out, part.finishReason, part.usage);
          break;
        case 'error':
          ended = true;
          // A started response ends as OpenAI ends one: response.failed with the whole response (open items
          // hold what was delivered, marked incomplete), then `error`.
          if (started) {
            sealOpenItems();
            emit(out, 'response.failed', { response: envelope('failed', null, null, { code: part.error.code ?? part.error.kind, message: part.error.message }) });
          }
          out.push(hubErrorToOpenaiResponsesStreamEvent(part.error, seq++));
          break;
      }
      return out;
    },
    end: () => [],
  };
}

export function hubToOpenaiResponsesStream(ctx: HubToStreamContext): TransformStream<HubStreamPart, SseEvent> {
  return machineToTransformStream(createHubToOpenaiResponsesStreamMachine(ctx));
}
