// Converse answers ⇄ the hub response. Converse answers carry no id and no model name: the hub gets a
// generated id and an empty model (the relay names the client's model in what it writes).
import { upstreamPayloadError } from '../../hub/hub-errors.ts';
import type { HubToResponseContext, ResponseToHubContext } from '../../hub/hub-format.ts';
import type { HubResponse, HubResponseContent } from '../../hub/hub-response.ts';
import { defaultGenerateId } from '../../hub/hub-stream.ts';
import { formatPath } from '../../hub/hub-validation.ts';
import { converseToolUseId } from './bedrock-converse-content.ts';
import { hubFinishReasonToConverse, mapConverseStopReason } from './bedrock-converse-finish-reason.ts';
import { converseResponseSchema } from './bedrock-converse-schema.ts';
import { converseUsageToHub, hubUsageToConverse } from './bedrock-converse-usage.ts';
import { signatureForClient } from '../../hub/hub-signatures.ts';

export function converseResponseToHub(json: unknown, ctx: ResponseToHubContext = {}): HubResponse {
  const parsed = converseResponseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw upstreamPayloadError('Bedrock Converse', `${issue ? formatPath(issue.path) : ''} ${issue?.message ?? ''}`.trim());
  }
  const content: HubResponseContent[] = [];
  for (const block of parsed.data.output.message.content) {
    if (block.text !== undefined) content.push({ type: 'text', text: block.text });
    else if (block.toolUse) content.push({ type: 'tool-call', id: block.toolUse.toolUseId, name: block.toolUse.name, argumentsJson: JSON.stringify(block.toolUse.input ?? {}) });
    else if (block.reasoningContent?.reasoningText) {
      const { text, signature } = block.reasoningContent.reasoningText;
      content.push({ type: 'reasoning', text, ...(signature ? { signature, signatureFamily: 'anthropic' } : {}) });
    } else if (block.reasoningContent?.redactedContent !== undefined) content.push({ type: 'reasoning', text: '', redactedData: block.reasoningContent.redactedContent });
  }
  return {
    id: (ctx.generateId ?? (() => defaultGenerateId('msg')))(),
    model: '',
    content,
    finishReason: mapConverseStopReason(parsed.data.stopReason),
    usage: converseUsageToHub(parsed.data.usage),
  };
}

/** A content block for Converse; a hosted tool's call or result (another provider's web search) has none. */
function hubContentToConverse(part: HubResponseContent): Record<string, unknown> | undefined {
  switch (part.type) {
    case 'text':
      return { text: part.text };
    case 'reasoning':
      return part.redactedData !== undefined
        ? { reasoningContent: { redactedContent: part.redactedData } }
        : { reasoningContent: { reasoningText: { text: part.text, ...(part.signature ? { signature: signatureForClient(part.signature, part.signatureFamily, 'anthropic') } : {}) } } };
    case 'tool-call': {
      let input: unknown = {};
      try {
        input = JSON.parse(part.argumentsJson || '{}');
      } catch {
        input = {};
      }
      return { toolUse: { toolUseId: converseToolUseId(part.id), name: part.name, input } };
    }
    default:
      return undefined;
  }
}

export function hubToConverseResponse(response: HubResponse, _ctx: HubToResponseContext): Record<string, unknown> {
  return {
    output: { message: { role: 'assistant', content: response.content.map(hubContentToConverse).filter((block) => block !== undefined) } },
    stopReason: hubFinishReasonToConverse(response.finishReason),
    usage: hubUsageToConverse(response.usage),
    metrics: { latencyMs: 0 },
  };
}
