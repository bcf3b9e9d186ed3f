// OpenAI Response objects ⇄ the hub response. Output items in order: reasoning items, one message per run
// of text, function_call items; the status says whether the answer was cut.
import { wantsEncryptedReasoning, withoutEncryptedReasoning } from './openai-responses-include.ts';
import { upstreamPayloadError } from '../../hub/hub-errors.ts';
import type { HubToResponseContext, ResponseToHubContext } from '../../hub/hub-format.ts';
import type { HubResponse, HubResponseContent } from '../../hub/hub-response.ts';
import { encodeToolCallId } from '../../hub/hub-tool-call-ids.ts';
import { formatPath } from '../../hub/hub-validation.ts';
import { hubFinishReasonToResponses, mapResponsesStatus } from './openai-responses-finish-reason.ts';
import { clientToolCallItem, toolCallItemId } from './openai-responses-tool-calls.ts';
import { clientToolsOf } from './openai-responses-tools.ts';
import {
  itemIdBase,
  messageItem,
  messageItemId,
  reasoningItem,
  reasoningItemId,
  responseEnvelope,
  responsesId,
} from './openai-responses-items.ts';
import { responsesResponseSchema } from './openai-responses-schema.ts';
import { urlCitation, webSearchCallItem, webSearchItemId } from './openai-responses-web-search.ts';
import { openaiResponsesUsageToHub } from './openai-responses-usage.ts';

const textsOf = (list: unknown): string[] =>
  Array.isArray(list) ? list.map((p) => (p as { text?: unknown }).text).filter((t): t is string => typeof t === 'string') : [];

/**
 * Reads an upstream Response. Hosted-tool items (web_search_call, …) have no hub form and are skipped.
 * A reasoning item's encrypted_content is OpenAI's own and is not kept: no other provider can read it.
 */
export function openaiResponsesResponseToHub(json: unknown, _ctx: ResponseToHubContext = {}): HubResponse {
  const parsed = responsesResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw upstreamPayloadError('OpenAI Responses', `${issue ? formatPath(issue.path) : ''} ${issue?.message ?? ''}`.trim());
  }
  const response = parsed.data;
  const content: HubResponseContent[] = [];
  for (const item of response.output as Array<Record<string, unknown>>) {
    switch (item.type) {
      case 'reasoning': {
        const summary = textsOf(item.summary);
        const text = (summary.length > 0 ? summary : textsOf(item.content)).join('\n\n');
        if (text !== '') content.push({ type: 'reasoning', text });
        break;
      }
      case 'message':
        for (const part of (item.content as Array<Record<string, unknown>> | undefined) ?? []) {
          const text = part.type === 'output_text' ? part.text : part.type === 'refusal' ? part.refusal : undefined;
          if (typeof text === 'string' && text !== '') content.push({ type: 'text', text });
        }
        break;
      case 'function_call':
        content.push({ type: 'tool-call', id: String(item.call_id), name: String(item.name), argumentsJson: String(item.arguments ?? '') });
        break;
    }
  }
  return {
    id: response.id,
    model: response.model,
    content,
    finishReason: mapResponsesStatus(response.status, response.incomplete_details?.reason, content.some((p) => p.type === 'tool-call')),
    usage: openaiResponsesUsageToHub(response.usage),
  };
}

/** The output items for hub content; on a cut answer the last item, if it is a message, is incomplete. */
function hubContentToResponsesOutput(content: readonly HubResponseContent[], base: string, incomplete: boolean, requestBody?: unknown): Record<string, unknown>[] {
  const clientTools = clientToolsOf(requestBody);
  const output: Record<string, unknown>[] = [];
  let text: string | null = null;
  let annotations: Record<string, unknown>[] = [];
  const flush = () => {
    if (text === null) return;
    output.push(messageItem(messageItemId(base, output.length), text, 'completed', annotations));
    text = null;
    annotations = [];
  };
  // A hosted search's call, found again when its result (the sources) comes.
  const searches = new Map<string, { index: number; queries: string[]; url?: string }>();
  for (const part of content) {
    if (part.type === 'text') {
      const offset = text?.length ?? 0;
      for (const citation of part.citations ?? []) annotations.push(urlCitation(citation, offset, part.text.length));
      text = (text ?? '') + part.text;
      continue;
    }
    if (part.type === 'server-tool-result') {
      const call = searches.get(part.callId);
      if (call) output[call.index] = webSearchCallItem(String(output[call.index]!.id), call, part.sources, part.errorCode === undefined ? 'completed' : 'failed');
      continue;
    }
    flush();
    if (part.type === 'reasoning') {
      output.push(reasoningItem(reasoningItemId(base, output.length), part.text, { signature: part.signature, redactedData: part.redactedData }));
    } else if (part.type === 'server-tool-call') {
      searches.set(part.id, { index: output.length, queries: part.queries, ...(part.url !== undefined ? { url: part.url } : {}) });
      output.push(webSearchCallItem(webSearchItemId(base, output.length), part, [], 'completed'));
    } else {
      const tool = clientTools.get(part.name);
      output.push(clientToolCallItem(tool, toolCallItemId(tool, base, output.length), encodeToolCallId(part.id, part.signature), part.name, part.argumentsJson, 'completed'));
    }
  }
  flush();
  const last = output[output.length - 1];
  if (incomplete && last?.type === 'message') last.status = 'incomplete';
  return output;
}

export function hubToOpenaiResponsesResponse(response: HubResponse, ctx: HubToResponseContext): Record<string, unknown> {
  const id = responsesId(response.id);
  const finish = hubFinishReasonToResponses(response.finishReason);
  return responseEnvelope({
    id,
    createdAt: ctx.created ?? Math.floor(Date.now() / 1000),
    model: ctx.requestModel,
    status: finish.status,
    incompleteDetails: finish.incomplete_details,
    output: wantsEncryptedReasoning(ctx.requestBody)
      ? hubContentToResponsesOutput(response.content, itemIdBase(id), finish.status === 'incomplete', ctx.requestBody)
      : hubContentToResponsesOutput(response.content, itemIdBase(id), finish.status === 'incomplete', ctx.requestBody).map(withoutEncryptedReasoning),
    usage: response.usage,
    requestBody: ctx.requestBody,
  });
}
