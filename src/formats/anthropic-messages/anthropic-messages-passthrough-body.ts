// A client's Messages body made fit for an Anthropic channel, where it is otherwise forwarded as sent:
// - without the thinking blocks another provider produced: the gateway marked their signatures when it wrote
//   them to the client (hub-signatures.ts), and Anthropic refuses a signature it did not make, so a session
//   that switched from a GPT or Gemini model to Claude, or a fallback onto Claude, would fail with a 400. The
//   visible text and tool calls stay;
// - with a thinking budget below Anthropic's smallest raised to it, rather than refused.
import { isMarkedSignature } from '../../hub/hub-signatures.ts';

/** Anthropic's smallest thinking budget (as in anthropic-messages-request.ts). */
const MIN_THINKING_BUDGET = 1024;

type Block = Record<string, unknown>;
type Message = { role?: unknown; content?: unknown };

/** True when the raw body may hold a marked signature (a cheap look at the bytes before any parsing). */
export function mayHoldForeignThinking(rawBody: Buffer): boolean {
  return rawBody.includes('gwsig:');
}

/**
 * The body without thinking blocks whose signature the gateway marked as another provider's; null when none
 * was found. When the last assistant turn lost its thinking, thinking is turned off for this request:
 * Anthropic wants a thinking-enabled turn that continues a tool loop to begin with its own thinking block.
 */
export function withoutForeignThinking(body: Record<string, unknown>): Record<string, unknown> | null {
  if (!Array.isArray(body.messages)) return null;
  let removed = false;
  let lastAssistantLost = false;
  const messages = (body.messages as Message[]).map((message, i, all) => {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) return message;
    const content = (message.content as Block[]).filter((block) => !(block.type === 'thinking' && isMarkedSignature(block.signature)));
    if (content.length === message.content.length) return message;
    removed = true;
    if (!all.slice(i + 1).some((later) => later.role === 'assistant')) lastAssistantLost = true;
    return { ...message, content };
  });
  if (!removed) return null;
  const out: Record<string, unknown> = { ...body, messages };
  if (lastAssistantLost && typeof body.thinking === 'object' && body.thinking !== null && (body.thinking as { type?: unknown }).type !== 'disabled') {
    delete out.thinking;
  }
  return out;
}

/** The body with a thinking budget under Anthropic's minimum raised to it (max_tokens kept above it); null when none is. */
export function withAnthropicThinkingBudget(body: Record<string, unknown>): Record<string, unknown> | null {
  const thinking = body.thinking as { type?: unknown; budget_tokens?: unknown } | undefined;
  if (thinking?.type !== 'enabled' || typeof thinking.budget_tokens !== 'number' || thinking.budget_tokens >= MIN_THINKING_BUDGET) return null;
  const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : 0;
  return { ...body, thinking: { ...thinking, budget_tokens: MIN_THINKING_BUDGET }, max_tokens: Math.max(maxTokens, MIN_THINKING_BUDGET + 1) };
}
