// Content capture (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, off by default): the prompt of a
// chat call as `gen_ai.input.messages` and `gen_ai.system_instructions`, and the answer's text as
// `gen_ai.output.messages` (credential-shaped strings redacted as in logged payloads, cut to 8 KB), in the conventions' JSON shape
// ({ role, parts: [{ type: 'text', content }, { type: 'tool_call', … }] }), read through the client format's
// own reader into the hub, so no format's fields are named here. Other endpoints' inputs are not captured.
import type { Attributes } from '@opentelemetry/api';
import { getFormat } from '../formats/index.ts';
import type { HubMessage } from '../hub/hub-request.ts';
import type { AnswerReading } from '../hub/hub-format.ts';
import { redactSecrets } from '../relay/redact-credentials.ts';
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

/**
 * The answer the client got as one assistant message: its delivered text with anything shaped like a
 * credential redacted (redactSecrets also bounds it to 8 KB), and the first answer's finish reason.
 */
export function outputMessagesOf(reading: AnswerReading): Attributes {
  if (reading.text.length === 0) return {};
  const message = { role: 'assistant', parts: [{ type: 'text', content: redactSecrets(reading.text) }], finish_reason: reading.finishReasons[0] ?? 'unknown' };
  return { 'gen_ai.output.messages': JSON.stringify([message]) };
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
