// Claude on Bedrock: top_k and extended thinking are not Converse fields. Claude takes them in Converse's
// additionalModelRequestFields, in Anthropic's own shape (`{"top_k": 200}`, `{"thinking": {"type": "enabled",
// "budget_tokens": 4000}}`, as the Bedrock user guide's Claude pages show), with Anthropic's rules: a budget
// from 1024 up and below maxTokens, and no top_k, no temperature but 1 and no top_p below 0.95 while thinking.
// Other model families name these fields differently (or not at all), so for them they stay dropped.
// @see https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html
import type { HubRequest } from '../../hub/hub-request.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';
import { thinkingAndMaxTokens } from '../anthropic-messages/anthropic-messages-request.ts';

/**
 * A Claude model id on Bedrock: `anthropic.claude-…`, a cross-region inference profile (`us.anthropic.claude-…`,
 * `global.anthropic.claude-…`) or an ARN ending in one. An application inference profile's ARN names no model,
 * so it is not recognised (its fields are dropped with a warning, as for any other model).
 */
const CLAUDE_MODEL_ID = /(?:^|[./:])anthropic\.claude-/;

export function isClaudeOnBedrock(modelId: string): boolean {
  return CLAUDE_MODEL_ID.test(modelId);
}

export interface ClaudeConverseFields {
  /** additionalModelRequestFields for the request; empty when nothing model-specific was asked for. */
  additional: Record<string, unknown>;
  /** Converse's maxTokens: raised above the thinking budget when the caller left it unset. */
  maxTokens?: number;
  temperature?: number;
  topP?: number;
}

export function claudeConverseFields(request: HubRequest, warnings: Warnings): ClaudeConverseFields {
  const out: ClaudeConverseFields = { additional: {} };
  const { thinking, maxTokens } = thinkingAndMaxTokens(request, warnings);
  const thinks = thinking?.type === 'enabled';
  if (thinks) {
    out.additional.thinking = thinking;
    out.maxTokens = maxTokens;
  } else if (request.maxOutputTokens !== undefined) out.maxTokens = request.maxOutputTokens;
  if (request.topK !== undefined) {
    if (thinks) warnings.dropped('top_k', 'Claude does not take top_k while thinking.');
    else out.additional.top_k = request.topK;
  }
  if (request.temperature !== undefined) {
    if (thinks && request.temperature !== 1) warnings.dropped('temperature', 'Claude does not take a temperature while thinking.');
    else out.temperature = request.temperature;
  }
  if (request.topP !== undefined) {
    if (thinks && request.topP < 0.95) warnings.dropped('top_p', 'Claude takes top_p from 0.95 up while thinking.');
    else out.topP = request.topP;
  }
  return out;
}
