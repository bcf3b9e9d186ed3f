// The formats registry: the one place a wire format is named. The relay looks a format up by name and uses
// its converters and its declared capabilities, so it never knows which format it is translating. A new
// format is a new folder and one line here (docs/adding-a-format.md lists the parts a folder must have;
// test/formats/registry-and-hub.test.ts fails when a registered format lacks one), or, for a format that
// lives outside src/ (a plugin, a test's toy), one registerFormat call at start-up.
import type { FormatConverters } from '../hub/hub-format.ts';
import { anthropicMessagesFormat } from './anthropic-messages/index.ts';
import { bedrockConverseFormat } from './bedrock-converse/index.ts';
import { geminiGenerateFormat } from './gemini-generate/index.ts';
import { openaiChatFormat } from './openai-chat/index.ts';
import { openaiResponsesFormat } from './openai-responses/index.ts';

const builtInFormats = {
  'openai-chat': openaiChatFormat,
  'anthropic-messages': anthropicMessagesFormat,
  'gemini-generate': geminiGenerateFormat,
  'openai-responses': openaiResponsesFormat,
  // Upstream only: Bedrock channels speak it; no client route.
  'bedrock-converse': bedrockConverseFormat,
} as const satisfies Record<string, FormatConverters>;

/**
 * The name of a wire format the gateway speaks: one of the built-in formats (named by the registry, so
 * editors complete them), or one registered at run time.
 */
export type FormatName = keyof typeof builtInFormats | (string & {});

/**
 * The formats built into the gateway, the ones clients can speak (each has its routes). Formats registered
 * at run time are upstream only: look every format up with getFormat.
 */
export const formats = builtInFormats;

const registered = new Map<string, FormatConverters>(Object.entries(builtInFormats));

/** Every registered format's name, in registration order (kept current by registerFormat). */
export const formatNames: FormatName[] = [...registered.keys()];

export function hasFormat(name: string): name is FormatName {
  return registered.has(name);
}

/** The converters for a format; throws for a name that is not registered. */
export function getFormat(name: string): FormatConverters {
  const format = registered.get(name);
  if (!format) throw new Error(`No converters are registered for the wire format '${name}'.`);
  return format;
}

/** The converters for a format, or undefined where there are none (the relay then offers no translation). */
export function relayFormat(name: string): FormatConverters | undefined {
  return registered.get(name);
}

/**
 * Adds a wire format at run time (before the gateway starts): upstream channels can then speak it. A name
 * already registered is refused, so a plugin cannot replace a format by accident.
 */
export function registerFormat(format: FormatConverters): void {
  if (registered.has(format.name)) throw new Error(`A wire format named '${format.name}' is already registered.`);
  registered.set(format.name, format);
  formatNames.push(format.name);
}

export { anthropicMessagesFormat, geminiGenerateFormat, openaiChatFormat };
