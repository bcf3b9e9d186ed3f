// The formats registry: the relay looks a wire format up by name and uses its converter set, so it never
// knows which format it is translating. A new format is a new folder and one line here.
import type { FormatConverters } from '../hub/hub-format.ts';
import type { FormatName } from '../hub/hub-request.ts';
import { anthropicMessagesFormat } from './anthropic-messages/index.ts';
import { geminiGenerateFormat } from './gemini-generate/index.ts';
import { openaiChatFormat } from './openai-chat/index.ts';

export type ConvertibleFormat = 'openai-chat' | 'anthropic-messages' | 'gemini-generate';

export const formats: Readonly<Record<ConvertibleFormat, FormatConverters>> = {
  'openai-chat': openaiChatFormat,
  'anthropic-messages': anthropicMessagesFormat,
  'gemini-generate': geminiGenerateFormat,
};

export function hasFormat(name: string): name is ConvertibleFormat {
  return Object.hasOwn(formats, name);
}

/** The converters for a format; throws for a format without converters (openai-responses, for now). */
export function getFormat(name: FormatName | string): FormatConverters {
  if (!hasFormat(name)) throw new Error(`No converters are registered for the wire format '${name}'.`);
  return formats[name];
}

export { anthropicMessagesFormat, geminiGenerateFormat, openaiChatFormat };

/** The converters for a format, or undefined where there are none (the relay then offers no translation). */
export function relayFormat(name: string): FormatConverters | undefined {
  return hasFormat(name) ? formats[name] : undefined;
}
