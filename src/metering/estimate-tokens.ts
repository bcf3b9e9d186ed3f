// Token estimates for when an upstream reports no usage (a cut stream, a server that never counts):
// a call is never billed as zero just because the upstream stayed silent.
import { countTokens } from 'gpt-tokenizer';

/** Per-message framing that chat templates add, as OpenAI's cookbook counts it. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_REPLY = 3;

export function estimateTextTokens(text: string): number {
  return text.length === 0 ? 0 : countTokens(text);
}

/** Estimates prompt tokens from any chat-like body by counting the text it carries. */
export function estimatePromptTokens(body: unknown): number {
  const messages = (body as { messages?: unknown })?.messages;
  if (Array.isArray(messages)) {
    let total = TOKENS_PER_REPLY;
    for (const message of messages) total += TOKENS_PER_MESSAGE + estimateTextTokens(collectText(message));
    return total;
  }
  const prompt = (body as { prompt?: unknown; input?: unknown })?.prompt ?? (body as { input?: unknown })?.input;
  return estimateTextTokens(collectText(prompt ?? body));
}

/** Every string in a JSON value, joined: close enough for prompts, whatever their shape. */
export function collectText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(collectText).join(' ');
  if (value && typeof value === 'object') {
    let text = '';
    for (const [field, inner] of Object.entries(value)) {
      // Image bytes are not text tokens; counting base64 would wildly overcharge.
      if (field === 'image_url' || field === 'data' || field === 'source') continue;
      text += ` ${collectText(inner)}`;
    }
    return text;
  }
  return '';
}
