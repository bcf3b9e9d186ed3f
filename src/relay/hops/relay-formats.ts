// The wire formats the relay can translate between, by name.
import type { FormatConverters } from '../../hub/hub-format.ts';
import type { FormatName } from '../../hub/hub-request.ts';
import { openaiChatFormat } from '../../formats/openai-chat/index.ts';
import { anthropicMessagesFormat } from '../../formats/anthropic-messages/index.ts';
import { geminiGenerateFormat } from '../../formats/gemini-generate/index.ts';

const formats: Partial<Record<FormatName, FormatConverters>> = {
  'openai-chat': openaiChatFormat,
  'anthropic-messages': anthropicMessagesFormat,
  'gemini-generate': geminiGenerateFormat,
};

export function relayFormat(name: string): FormatConverters | undefined {
  return formats[name as FormatName];
}
