// Tool results name their call by id only in OpenAI and Anthropic; Gemini's functionResponse needs the
// function's name. The matching call is earlier in the history, so the name is looked up there.
import type { HubMessage } from './hub-request.ts';

export function toolNamesById(messages: readonly HubMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.content) if (part.type === 'tool-call') names.set(part.id, part.name);
  }
  return names;
}
