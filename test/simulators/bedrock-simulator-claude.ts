// Claude's model-specific fields on the Bedrock simulator (additionalModelRequestFields), checked as Bedrock
// passes them to Claude: `top_k`, and `thinking` {type: "enabled", budget_tokens} with Anthropic's rules (a
// budget from 1024 and below maxTokens; no top_k and no temperature but 1 while thinking). Any such field for
// a model that is not Claude is refused as Bedrock refuses an extraneous key. A thinking answer starts with a
// reasoningContent block whose signature the simulator made (HMAC of the text); a tool round trip while
// thinking must send that block back, signature intact, before its toolUse (Anthropic requires it).
import { createHmac } from 'node:crypto';

export interface ReasoningBlock { reasoningContent: { reasoningText: { text: string; signature: string } } }
interface HistoryBlock { text?: string; toolUse?: unknown; toolResult?: unknown; reasoningContent?: { reasoningText?: { text?: string; signature?: string } } }
export interface ClaudeBody {
  messages?: { role?: string; content?: HistoryBlock[] }[];
  inferenceConfig?: { maxTokens?: number; temperature?: number };
  additionalModelRequestFields?: { thinking?: { type?: string; budget_tokens?: number }; top_k?: number; [key: string]: unknown };
}

const SIGNING_KEY = 'bedrock-simulator-thinking';
const CLAUDE_MODEL_ID = /(?:^|[./:])anthropic\.claude-/;
const sign = (text: string) => createHmac('sha256', SIGNING_KEY).update(text).digest('base64');

/** Whether the request asks the model to think (after claudeFieldsProblem found nothing wrong). */
export const thinks = (body: ClaudeBody): boolean => body.additionalModelRequestFields?.thinking?.type === 'enabled';

/** Bedrock's ValidationException message for the request's model-specific fields, or null when they are good. */
export function claudeFieldsProblem(modelId: string, body: ClaudeBody): string | null {
  const fields = body.additionalModelRequestFields;
  if (fields === undefined) return null;
  if (!CLAUDE_MODEL_ID.test(modelId)) return `Malformed input request: #: extraneous key [${Object.keys(fields)[0]}] is not permitted, please reformat your input and try again.`;
  const thinking = fields.thinking;
  if (thinking === undefined || thinking.type !== 'enabled') return null;
  const budget = thinking.budget_tokens ?? 0;
  if (budget < 1024) return 'The model returned the following errors: thinking.enabled.budget_tokens: Input should be greater than or equal to 1024';
  if ((body.inferenceConfig?.maxTokens ?? 0) <= budget) return 'The model returned the following errors: `max_tokens` must be greater than `thinking.budget_tokens`.';
  if (fields.top_k !== undefined) return 'The model returned the following errors: top_k is not supported when thinking is enabled.';
  if (body.inferenceConfig?.temperature !== undefined && body.inferenceConfig.temperature !== 1) return 'The model returned the following errors: `temperature` may only be set to 1 when thinking is enabled.';
  // The assistant turn whose tool calls are being answered must start with its signed thinking.
  const turns = body.messages ?? [];
  const last = turns.at(-1);
  const previous = turns.at(-2);
  if (last?.content?.some((block) => block.toolResult) && previous?.content?.some((block) => block.toolUse)) {
    const first = previous.content[0]?.reasoningContent?.reasoningText;
    if (!first) return 'The model returned the following errors: messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block.';
    if (!first.signature || first.signature !== sign(first.text ?? '')) return 'The model returned the following errors: messages.1.content.0: Invalid `signature` in `thinking` block';
  }
  return null;
}

/** The signed reasoning a thinking answer starts with. */
export function reasoningBlock(said: string): ReasoningBlock {
  const text = `Thinking about "${said}".`;
  return { reasoningContent: { reasoningText: { text, signature: sign(text) } } };
}
