// OpenAI chat completion responses ⇄ the hub response. Only the first choice is read: the hub has one.
import type { HubResponse, HubResponseContent } from '../../hub/hub-response.ts';
import { upstreamPayloadError } from '../../hub/hub-errors.ts';
import type { HubToResponseContext } from '../../hub/hub-format.ts';
import { formatPath } from '../../hub/hub-validation.ts';
import { hubFinishReasonToOpenai, mapOpenaiFinishReason } from './openai-chat-finish-reason.ts';
import { openaiChatResponseSchema } from './openai-chat-schema.ts';
import { hubUsageToOpenai, openaiUsageToHub } from './openai-chat-usage.ts';
import { encodeToolCallId } from '../../hub/hub-tool-call-ids.ts';

export function openaiChatResponseToHub(json: unknown): HubResponse {
  const parsed = openaiChatResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw upstreamPayloadError('OpenAI chat', `${issue ? formatPath(issue.path) : ''} ${issue?.message ?? ''}`.trim());
  }
  const response = parsed.data;
  const choice = response.choices[0];
  const content: HubResponseContent[] = [];
  const message = choice?.message;
  if (message?.reasoning_content) content.push({ type: 'reasoning', text: message.reasoning_content });
  if (message?.content) content.push({ type: 'text', text: message.content });
  else if (message?.refusal) content.push({ type: 'text', text: message.refusal });
  for (const call of message?.tool_calls ?? []) {
    content.push({ type: 'tool-call', id: call.id, name: call.function.name, argumentsJson: call.function.arguments });
  }
  return {
    id: response.id,
    model: response.model,
    content,
    finishReason: mapOpenaiFinishReason(choice?.finish_reason),
    usage: openaiUsageToHub(response.usage),
  };
}

export function hubToOpenaiChatResponse(response: HubResponse, ctx: HubToResponseContext): Record<string, unknown> {
  const text = response.content.filter((p) => p.type === 'text').map((p) => p.text).join('');
  const reasoning = response.content.filter((p) => p.type === 'reasoning').map((p) => p.text).join('');
  const calls = response.content.filter((p) => p.type === 'tool-call');
  const message: Record<string, unknown> = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text, refusal: null };
  if (reasoning !== '') message.reasoning_content = reasoning;
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({ id: encodeToolCallId(call.id, call.signature), type: 'function', function: { name: call.name, arguments: call.argumentsJson } }));
  }
  return {
    id: response.id.startsWith('chatcmpl-') ? response.id : `chatcmpl-${response.id}`,
    object: 'chat.completion',
    created: ctx.created ?? Math.floor(Date.now() / 1000),
    model: ctx.requestModel,
    choices: [{ index: 0, message, logprobs: null, finish_reason: hubFinishReasonToOpenai(response.finishReason) }],
    usage: hubUsageToOpenai(response.usage),
  };
}
