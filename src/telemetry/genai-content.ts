// Content capture (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, off by default): the prompt of a
// chat call as `gen_ai.input.messages` and `gen_ai.system_instructions` (answers are not captured), in the conventions' JSON shape
// ({ role, parts: [{ type: 'text', content }, { type: 'tool_call', … }] }), read through the client format's
// own reader into the hub, so no format's fields are named here. Other endpoints' inputs are not captured.
import type { Attributes } from '@opentelemetry/api';
import { getFormat } from '../formats/index.ts';
import type { HubMessage } from '../hub/hub-request.ts';
import { operationOf } from './genai-names.ts';

/** Longest text kept per attribute: a trace backend is not the place for a whole book. */
const MAX_CONTENT_CHARS = 64 * 1024;

type Part = { type: 'text'; content: string } | { type: 'tool_call'; id: string; name: string; arguments: string } | { type: 'tool_call_response'; id: string; result: string };

export function inputMessagesOf(endpoint: string, inboundFormat: string, body: Record<string, unknown>): Attributes {
  const { operation } = operationOf(endpoint);
  if (operation !== 'chat' && operation !== 'generate_content') return {};
  let request;
  try {
    request = getFormat(inboundFormat).requestToHub(body).request;
  } catch {
    return {};
  }
  const attributes: Attributes = { 'gen_ai.input.messages': capped(JSON.stringify(request.messages.map(messageOf))) };
  if (request.system.length > 0) attributes['gen_ai.system_instructions'] = capped(JSON.stringify(request.system.map((part) => ({ type: 'text', content: part.text }))));
  return attributes;
}

function messageOf(message: HubMessage): { role: string; parts: Part[] } {
  const parts: Part[] = [];
  for (const part of message.content) {
    if (part.type === 'text') parts.push({ type: 'text', content: part.text });
    else if (part.type === 'tool-call') parts.push({ type: 'tool_call', id: part.id, name: part.name, arguments: part.argumentsJson });
    else if (part.type === 'tool-result') parts.push({ type: 'tool_call_response', id: part.toolCallId, result: typeof part.content === 'string' ? part.content : part.content.map((item) => (item.type === 'text' ? item.text : '')).join('') });
  }
  return { role: message.role, parts };
}

function capped(text: string): string {
  return text.length > MAX_CONTENT_CHARS ? text.slice(0, MAX_CONTENT_CHARS) : text;
}
