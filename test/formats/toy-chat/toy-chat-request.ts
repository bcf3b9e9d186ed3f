// toy-chat requests ⇄ the hub. The toy has text turns only: images, documents, tools and reasoning are
// dropped with a warning, a system message inside the conversation joins the system text.
import type { HubMessage, HubRequest } from '../../../src/hub/hub-request.ts';
import { Warnings, type HubWarning } from '../../../src/hub/hub-warnings.ts';
import { upstreamPayloadError } from '../../../src/hub/hub-errors.ts';
import type { ToyRequest, ToyTurn } from './toy-chat-wire.ts';

function textOf(message: HubMessage, warnings: Warnings, at: string): string {
  const texts: string[] = [];
  for (const [i, part] of message.content.entries()) {
    if (part.type === 'text') texts.push(part.text);
    else warnings.dropped(`${at}.content[${i}]`, `toy-chat carries text only, not ${part.type}`);
  }
  return texts.join('\n');
}

export function hubToToyRequest(request: HubRequest, upstreamModel: string): { body: Record<string, unknown>; warnings: HubWarning[] } {
  const warnings = new Warnings();
  const system = request.system.map((part) => part.text);
  const turns: ToyTurn[] = [];
  for (const [i, message] of request.messages.entries()) {
    if (message.role === 'system') system.push(textOf(message, warnings, `messages[${i}]`));
    else if (message.role === 'tool') warnings.dropped(`messages[${i}]`, 'toy-chat has no tools');
    else turns.push({ who: message.role === 'user' ? 'user' : 'bot', text: textOf(message, warnings, `messages[${i}]`) });
  }
  if (request.tools.length > 0) warnings.dropped('tools', 'toy-chat has no tools');
  const body: ToyRequest = {
    model: upstreamModel,
    ...(system.length > 0 ? { system: system.join('\n') } : {}),
    turns,
    ...(request.maxOutputTokens !== undefined ? { max_words: request.maxOutputTokens } : {}),
    ...(request.stopSequences.length > 0 ? { stop: request.stopSequences } : {}),
    ...(request.stream ? { stream: true } : {}),
  };
  return { body: body as unknown as Record<string, unknown>, warnings: warnings.list };
}

export function toyRequestToHub(body: unknown): { request: HubRequest; warnings: HubWarning[] } {
  const toy = body as Partial<ToyRequest> | null;
  if (!toy || typeof toy !== 'object' || !Array.isArray(toy.turns)) throw upstreamPayloadError('toy-chat', 'a request needs turns');
  return {
    request: {
      model: String(toy.model ?? ''),
      system: toy.system ? [{ type: 'text', text: toy.system }] : [],
      messages: toy.turns.map((turn) => ({ role: turn.who === 'bot' ? 'assistant' as const : 'user' as const, content: [{ type: 'text' as const, text: String(turn.text) }] })),
      tools: [],
      ...(toy.max_words !== undefined ? { maxOutputTokens: toy.max_words } : {}),
      stopSequences: toy.stop ?? [],
      stream: toy.stream === true,
      extensions: {},
    },
    warnings: [],
  };
}
