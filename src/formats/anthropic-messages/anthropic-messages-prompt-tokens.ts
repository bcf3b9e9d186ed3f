// The local count of an Anthropic Messages body's prompt: what count_tokens answers without an Anthropic
// channel, and what a translated stream's message_start says before the upstream reports its own figure.
import { collectText } from '../../metering/estimate-tokens.ts';
import { sampledTokens } from '../shared/sampled-tokens.ts';

/** Per-message framing, as estimate-tokens.ts counts chat messages. */
const TOKENS_PER_MESSAGE = 3;

/** System, every message and the tool definitions. */
export function estimateAnthropicPromptTokens(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const texts = [collectText(body.system ?? ''), collectText(body.tools ?? ''), ...messages.map((message) => collectText((message as { content?: unknown }).content ?? ''))];
  return TOKENS_PER_MESSAGE * messages.length + sampledTokens(texts);
}
