// Anthropic messages ⇄ the hub response.
import { upstreamPayloadError } from '../../hub/hub-errors.ts';
import type { HubToResponseContext } from '../../hub/hub-format.ts';
import type { HubResponse, HubResponseContent } from '../../hub/hub-response.ts';
import { formatPath } from '../../hub/hub-validation.ts';
import { hubFinishReasonToAnthropic, mapAnthropicStopReason } from './anthropic-messages-finish-reason.ts';
import { anthropicResponseSchema, type AnthropicContentBlock } from './anthropic-messages-schema.ts';
import { anthropicUsageToHub, hubUsageToAnthropic } from './anthropic-messages-usage.ts';
import { encodeToolCallId } from '../../hub/hub-tool-call-ids.ts';
import { signatureForClient } from '../../hub/hub-signatures.ts';
import { anthropicCitationsToHub, anthropicServerToolCallToHub, anthropicWebSearchResultToHub, hubServerToolCallToAnthropic, hubServerToolResultToAnthropic, hubTextToAnthropicBlocks } from './anthropic-messages-server-tools.ts';

/** One response block as hub content; server tools other than web search (code execution, …) have no hub form. */
function anthropicBlockToHub(block: AnthropicContentBlock): HubResponseContent | undefined {
  const b = block as Record<string, unknown>;
  switch (block.type) {
    case 'text': {
      const citations = anthropicCitationsToHub(b.citations);
      return citations.length > 0 ? { type: 'text', text: String(b.text), citations } : { type: 'text', text: String(b.text) };
    }
    case 'server_tool_use':
      return anthropicServerToolCallToHub(b);
    case 'web_search_tool_result':
      return anthropicWebSearchResultToHub(b);
    case 'thinking':
      return { type: 'reasoning', text: String(b.thinking), signature: String(b.signature), signatureFamily: 'anthropic' };
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redactedData: String(b.data), signatureFamily: 'anthropic' };
    case 'tool_use':
      return { type: 'tool-call', id: String(b.id), name: String(b.name), argumentsJson: JSON.stringify(b.input ?? {}) };
    default:
      return undefined;
  }
}

export function anthropicMessagesResponseToHub(json: unknown): HubResponse {
  const parsed = anthropicResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw upstreamPayloadError('Anthropic messages', `${issue ? formatPath(issue.path) : ''} ${issue?.message ?? ''}`.trim());
  }
  const message = parsed.data;
  const content: HubResponseContent[] = [];
  for (const block of message.content) {
    const part = anthropicBlockToHub(block);
    if (part) content.push(part);
  }
  return {
    id: message.id,
    model: message.model,
    content,
    finishReason: mapAnthropicStopReason(message.stop_reason),
    usage: anthropicUsageToHub(message.usage),
  };
}

function hubContentToAnthropic(part: HubResponseContent): Record<string, unknown>[] {
  switch (part.type) {
    case 'text':
      return hubTextToAnthropicBlocks(part);
    case 'server-tool-call':
      return [hubServerToolCallToAnthropic(part)];
    case 'server-tool-result':
      return [hubServerToolResultToAnthropic(part)];
    case 'reasoning':
      // Another provider's signature (or none) is marked as such, so the thinking is not sent to Anthropic later.
      return [part.redactedData !== undefined
        ? { type: 'redacted_thinking', data: part.redactedData }
        : { type: 'thinking', thinking: part.text, signature: signatureForClient(part.signature, part.signatureFamily, 'anthropic') }];
    case 'tool-call': {
      let input: unknown = {};
      try {
        input = part.argumentsJson.trim() === '' ? {} : JSON.parse(part.argumentsJson);
      } catch {
        // A model can emit broken JSON (cut off by max_tokens); the client still sees what it produced.
        input = { _raw_arguments: part.argumentsJson };
      }
      return [{ type: 'tool_use', id: encodeToolCallId(part.id, part.signature), name: part.name, input }];
    }
  }
}

export function anthropicMessageId(id: string): string {
  return id.startsWith('msg_') ? id : `msg_${id}`;
}

export function hubToAnthropicMessagesResponse(response: HubResponse, ctx: HubToResponseContext): Record<string, unknown> {
  return {
    id: anthropicMessageId(response.id),
    type: 'message',
    role: 'assistant',
    model: ctx.requestModel,
    content: response.content.flatMap(hubContentToAnthropic),
    stop_reason: hubFinishReasonToAnthropic(response.finishReason),
    stop_sequence: null,
    usage: hubUsageToAnthropic(response.usage),
  };
}
