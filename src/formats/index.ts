// The formats registry: the one place a wire format is named. The relay looks a format up by name and uses
// its converters and its declared capabilities, so it never knows which format it is translating. A new
// format is a new folder and one line here (docs/architecture.md lists the parts a folder must have;
// test/formats/registry-and-hub.test.ts fails when a registered format lacks one).
import type { FormatConverters } from '../hub/hub-format.ts';
import { anthropicMessagesFormat } from './anthropic-messages/index.ts';
import { bedrockConverseFormat } from './bedrock-converse/index.ts';
import { geminiGenerateFormat } from './gemini-generate/index.ts';
import { openaiChatFormat } from './openai-chat/index.ts';
import { openaiResponsesFormat } from './openai-responses/index.ts';

export const formats = {
  'openai-chat': openaiChatFormat,
  'anthropic-messages': anthropicMessagesFormat,
  'gemini-generate': geminiGenerateFormat,
  'openai-responses': openaiResponsesFormat,
  // Upstream only: Bedrock channels speak it; no client route.
  'bedrock-converse': bedrockConverseFormat,
} as const satisfies Record<string, FormatConverters>;

/** The wire formats the gateway speaks: the one union of format names, derived from the registry. */
export type FormatName = keyof typeof formats;

export const formatNames = Object.keys(formats) as FormatName[];

export function hasFormat(name: string): name is FormatName {
  return Object.hasOwn(formats, name);
}

/** The converters for a format; throws for a name that is not registered. */
export function getFormat(name: string): FormatConverters {
  if (!hasFormat(name)) throw new Error(`No converters are registered for the wire format '${name}'.`);
  return formats[name];
}

export { anthropicMessagesFormat, bedrockConverseFormat, geminiGenerateFormat, openaiChatFormat, openaiResponsesFormat };

/** The converters for a format, or undefined where there are none (the relay then offers no translation). */
export function relayFormat(name: string): FormatConverters | undefined {
  return hasFormat(name) ? formats[name] : undefined;
}
