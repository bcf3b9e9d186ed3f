// System messages inside a conversation (Claude Code sends them with non-Claude models; OpenAI chat allows
// them anywhere). The hub keeps each where the caller put it; a target format with a single system prompt
// (Anthropic's top-level `system`, Gemini's systemInstruction, Converse's `system`) takes them folded into
// it, in order, after the leading system prompt.
import type { HubMessage, HubSystemMessage, HubTextPart } from './hub-request.ts';
import type { Warnings } from './hub-warnings.ts';

export type HubConversationMessage = Exclude<HubMessage, HubSystemMessage>;

/** The text of a system message's parts, joined as one instruction. */
export function systemMessageText(message: HubSystemMessage): string {
  return message.content.map((part) => part.text).join('\n');
}

/**
 * The system prompt with every in-conversation system message appended, and the conversation without them.
 * Each moved message is named in a warning, since its position (after which turn it was said) is lost.
 */
export function foldSystemMessages(
  system: readonly HubTextPart[],
  messages: readonly HubMessage[],
  warnings: Warnings,
  target: string,
): { system: HubTextPart[]; messages: HubConversationMessage[] } {
  const folded: HubTextPart[] = [...system];
  const conversation: HubConversationMessage[] = [];
  messages.forEach((message, i) => {
    if (message.role !== 'system') {
      conversation.push(message);
      return;
    }
    for (const part of message.content) if (part.text !== '') folded.push({ type: 'text', text: part.text });
    warnings.unsupported(`messages[${i}].role`, `${target} takes system instructions only as one system prompt; this system message was appended to it.`);
  });
  return { system: folded, messages: conversation };
}
