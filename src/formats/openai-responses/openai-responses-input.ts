// Responses `input` items ⇄ hub messages. Leading system and developer messages are the system prompt, later
// ones hub system messages in place; assistant messages, function_call and reasoning items in a row make one
// assistant turn; function_call_output items in a row make one tool turn. Reasoning items carry a thinking signature in `encrypted_content` (the
// gateway put it there in its own responses), so a thinking model gets it back.
import { systemMessageText } from '../../hub/hub-system-messages.ts';
import type { z } from 'zod';
import { invalidRequest } from '../../gateway-errors.ts';
import type { HubAssistantContent, HubMessage, HubReasoningPart, HubTextPart, HubToolResultPart, HubUserContent } from '../../hub/hub-request.ts';
import { decodeToolCallId } from '../../hub/hub-tool-call-ids.ts';
import { toolNamesById } from '../../hub/hub-tool-names.ts';
import type { Warnings } from '../../hub/hub-warnings.ts';
import { openReasoning } from './openai-responses-reasoning-seal.ts';
import { clientToolItemToHub } from './openai-responses-tool-calls.ts';
import { qualifiedToolName } from './openai-responses-tools.ts';
import { parseAt, partsToHub, toolOutputToHub, userPartToResponses } from './openai-responses-parts.ts';
import {
  responsesFunctionCallItemSchema,
  responsesFunctionCallOutputItemSchema,
  responsesMessageItemSchema,
  responsesReasoningItemSchema,
} from './openai-responses-schema.ts';


/**
 * A reasoning item back in the history. Its encrypted_content, when the gateway sealed it, gives the
 * upstream's signature or redacted block back; anything else (OpenAI's own from a turn on an OpenAI channel,
 * a forgery) cannot be, and is left out with its text kept. Null: nothing left to carry.
 */
function reasoningToHub(item: z.output<typeof responsesReasoningItemSchema>, at: string, warnings: Warnings): HubReasoningPart | null {
  const texts = item.summary.length > 0 ? item.summary : (item.content ?? []);
  const part: HubReasoningPart = { type: 'reasoning', text: texts.map((s) => s.text).join('\n\n') };
  const sealed = item.encrypted_content;
  if (sealed) {
    const seal = openReasoning(sealed);
    if (seal === null) warnings.dropped(`${at}.encrypted_content`, "reasoning state this gateway did not seal (another provider's) cannot be sent to this model's provider; its summary text was kept.");
    else if (seal.redactedData !== undefined) {
      part.text = '';
      part.redactedData = seal.redactedData;
    } else if (seal.signature) part.signature = seal.signature;
  }
  return part.text === '' && part.signature === undefined && part.redactedData === undefined ? null : part;
}

export function responsesInputToHub(
  input: string | ReadonlyArray<Record<string, unknown>> | undefined,
  warnings: Warnings,
): { system: HubTextPart[]; messages: HubMessage[] } {
  const system: HubTextPart[] = [];
  const out: HubMessage[] = [];
  if (input === undefined) return { system, messages: out };
  if (typeof input === 'string') return { system, messages: [{ role: 'user', content: [{ type: 'text', text: input }] }] };

  const assistantTurn = (): HubAssistantContent[] => {
    const last = out[out.length - 1];
    if (last?.role === 'assistant') return last.content;
    const content: HubAssistantContent[] = [];
    out.push({ role: 'assistant', content });
    return content;
  };
  const toolTurn = (): HubToolResultPart[] => {
    const last = out[out.length - 1];
    if (last?.role === 'tool') return last.content;
    const content: HubToolResultPart[] = [];
    out.push({ role: 'tool', content });
    return content;
  };

  input.forEach((raw, i) => {
    const at = `input[${i}]`;
    const type = raw.type ?? (raw.role !== undefined ? 'message' : undefined);
    switch (type) {
      case 'message': {
        const item = parseAt(responsesMessageItemSchema, raw, at);
        const parts = typeof item.content === 'string' ? [{ type: 'text' as const, text: item.content }] : partsToHub(item.content, `${at}.content`);
        if (item.role === 'system' || item.role === 'developer') {
          const texts: HubTextPart[] = [];
          for (const part of parts) {
            if (part.type !== 'text') throw invalidRequest(`'${at}.content': system messages can only hold text.`, `${at}.content`);
            if (part.text !== '') texts.push(part);
          }
          // Leading system messages are the system prompt; a later one stays where it was said.
          if (out.length > 0) out.push({ role: 'system', content: texts });
          else system.push(...texts);
        } else if (item.role === 'user') {
          out.push({ role: 'user', content: parts as HubUserContent[] });
        } else {
          const content = assistantTurn();
          for (const part of parts) {
            if (part.type !== 'text') throw invalidRequest(`'${at}.content': assistant messages can only hold text.`, `${at}.content`);
            content.push(part);
          }
        }
        return;
      }
      case 'function_call': {
        const item = parseAt(responsesFunctionCallItemSchema, raw, at);
        const { id, signature } = decodeToolCallId(item.call_id);
        const name = qualifiedToolName(typeof item.namespace === 'string' ? item.namespace : undefined, item.name);
        assistantTurn().push({ type: 'tool-call', id, name, argumentsJson: item.arguments, ...(signature ? { signature } : {}) });
        return;
      }
      case 'function_call_output': {
        const item = parseAt(responsesFunctionCallOutputItemSchema, raw, at);
        toolTurn().push({
          type: 'tool-result',
          toolCallId: decodeToolCallId(item.call_id).id,
          content: typeof item.output === 'string' ? item.output : toolOutputToHub(partsToHub(item.output, `${at}.output`), `${at}.output`),
          isError: false,
        });
        return;
      }
      case 'reasoning': {
        const part = reasoningToHub(parseAt(responsesReasoningItemSchema, raw, at), at, warnings);
        if (part) assistantTurn().push(part);
        return;
      }
      case 'item_reference':
        throw invalidRequest(`'${at}': item_reference needs an OpenAI-type channel: that item is kept by the OpenAI channel that produced it, not by the gateway; send the items themselves.`, `${at}.type`);
      case 'web_search_call':
        warnings.dropped(at, "a hosted web search's call from an earlier turn on OpenAI cannot be sent to this model's provider; it was left out.");
        return;
      default: {
        const tool = clientToolItemToHub(String(type), raw, at);
        if (tool && 'call' in tool) {
          assistantTurn().push(tool.call);
          return;
        }
        if (tool) {
          toolTurn().push(tool.result);
          return;
        }
        throw invalidRequest(
          `'${at}': ${String(type ?? 'untyped')} items cannot be translated for this model's provider; only messages, reasoning, and calls of the client's own tools (function, custom, shell) and their outputs can.`,
          `${at}.type`,
        );
      }
    }
  });
  // Results name their call by call_id only; the hub also carries the name for formats that need it.
  const names = toolNamesById(out);
  for (const message of out) {
    if (message.role !== 'tool') continue;
    for (const result of message.content) {
      const name = names.get(result.toolCallId);
      if (name !== undefined) result.name = name;
    }
  }
  return { system, messages: out };
}

// ---- hub → input items (for a Responses upstream) ---------------------------------------------------------

export function hubMessagesToResponsesInput(messages: readonly HubMessage[], warnings: Warnings): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  messages.forEach((message, i) => {
    const at = `messages[${i}]`;
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: systemMessageText(message) });
        return;
      case 'user':
        out.push({ role: 'user', content: message.content.map(userPartToResponses) });
        return;
      case 'assistant': {
        let text = '';
        const flush = () => {
          if (text !== '') out.push({ role: 'assistant', content: text });
          text = '';
        };
        let droppedReasoning = false;
        for (const part of message.content) {
          if (part.type === 'text') text += part.text;
          else if (part.type === 'reasoning') droppedReasoning = true;
          else {
            flush();
            out.push({ type: 'function_call', call_id: part.id, name: part.name, arguments: part.argumentsJson });
          }
        }
        flush();
        // An OpenAI reasoning item needs OpenAI's own id and encrypted content, which other providers' thinking lacks.
        if (droppedReasoning) warnings.dropped(`${at}.reasoning`, 'OpenAI Responses only takes back its own reasoning items; the reasoning was left out.');
        return;
      }
      case 'tool':
        message.content.forEach((result, j) => {
          if (result.isError) warnings.unsupported(`${at}.content[${j}].is_error`, 'OpenAI Responses has no error flag on function call outputs; the result was sent as plain output.');
          out.push({
            type: 'function_call_output',
            call_id: result.toolCallId,
            output: typeof result.content === 'string' ? result.content : result.content.map(userPartToResponses),
          });
        });
        return;
    }
  });
  return out;
}
