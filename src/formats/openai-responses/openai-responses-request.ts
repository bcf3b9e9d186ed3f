// OpenAI Responses requests (POST /v1/responses) ⇄ the hub request. The gateway serves them from chat-type
// upstreams. Responses the gateway keeps are put back into the input before this runs (src/responses/), so
// what still reaches here is state only an OpenAI channel holds (a response it answered, conversations,
// stored prompts, background runs) or OpenAI's hosted tools (web_search, file_search, computer use, …): it is
// refused with a 400 that names the field, rather than answered without it.
import { invalidRequest } from '../../gateway-errors.ts';
import { impliedEffort } from '../../hub/hub-reasoning.ts';
import type { HubReasoningConfig, HubRequest, HubResponseFormat, HubTool, HubToolChoice } from '../../hub/hub-request.ts';
import { parseOrThrow, unknownFields } from '../../hub/hub-validation.ts';
import { Warnings, type HubWarning } from '../../hub/hub-warnings.ts';
import { restoreExtensions, setIfDefined, warnForeignExtensions } from '../shared/extensions.ts';
import { warnUnservedWebTools } from '../shared/server-tools.ts';
import { warnUnavailableIncludes } from './openai-responses-include.ts';
import { hubMessagesToResponsesInput, responsesInputToHub } from './openai-responses-input.ts';
import { responsesRequestSchema, type ResponsesRequest } from './openai-responses-schema.ts';
import { qualifiedToolName, responsesToolsToHub } from './openai-responses-tools.ts';

const KNOWN_FIELDS = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_output_tokens',
  'temperature', 'top_p', 'text', 'reasoning', 'stream', 'metadata', 'user', 'previous_response_id',
  'conversation', 'prompt', 'background',
]);

/** Fields that only an OpenAI-type channel can honour: it keeps the state they refer to. */
function refuseServerState(input: ResponsesRequest): void {
  const needs = (field: string, what: string) => {
    throw invalidRequest(`${field} needs an OpenAI-type channel: ${what} This model is served by another provider; send the whole conversation in 'input' instead.`, field);
  };
  // A previous_response_id the gateway keeps never gets here (it became the input); this one was answered,
  // and is kept, by an OpenAI channel, which another provider cannot read.
  if (input.previous_response_id) needs('previous_response_id', 'that response was answered and is kept by an OpenAI channel, not by the gateway.');
  if (input.conversation) needs('conversation', 'conversations are kept by OpenAI.');
  if (input.prompt) needs('prompt', 'prompt templates are kept by OpenAI.');
  if (input.background) needs('background', 'background responses are kept and polled on OpenAI.');
}

const namespaceOf = (choice: Record<string, unknown>): string | undefined => (typeof choice.namespace === 'string' ? choice.namespace : undefined);

/** allowed_tools narrows the tools the model may call: the hub gets only those, with the mode as the choice. */
function toolChoiceToHub(choice: ResponsesRequest['tool_choice'], tools: HubTool[]): { choice?: HubToolChoice; tools: HubTool[] } {
  if (choice === null || choice === undefined) return { tools };
  if (typeof choice === 'string') return { choice, tools };
  if (choice.type === 'function' || choice.type === 'custom') {
    if (typeof choice.name !== 'string' || choice.name === '') throw invalidRequest("Invalid value for 'tool_choice.name': name the function to call.", 'tool_choice.name');
    return { choice: { type: 'tool', name: qualifiedToolName(namespaceOf(choice), choice.name) }, tools };
  }
  if (choice.type === 'local_shell' || choice.type === 'shell') return { choice: { type: 'tool', name: choice.type }, tools };
  if (choice.type === 'allowed_tools' && Array.isArray(choice.tools)) {
    const allowed = new Set(choice.tools.map((t) => (t.type === 'local_shell' || t.type === 'shell' ? t.type : qualifiedToolName(namespaceOf(t), String(t.name)))));
    return { choice: choice.mode as 'auto' | 'required', tools: tools.filter((t) => allowed.has(t.name)) };
  }
  throw invalidRequest(`Invalid value for 'tool_choice.type': '${choice.type}' names a tool that runs on OpenAI's servers; only function tools can be chosen for this model's provider.`, 'tool_choice.type');
}

function responseFormatToHub(text: ResponsesRequest['text']): HubResponseFormat | undefined {
  const format = text?.format;
  if (!format) return undefined;
  if (format.type !== 'json_schema') return { type: format.type };
  const out: HubResponseFormat = { type: 'json_schema', name: format.name, schema: format.schema };
  if (format.description != null) out.description = format.description;
  if (format.strict != null) out.strict = format.strict;
  return out;
}

function reasoningToHub(reasoning: ResponsesRequest['reasoning'], warnings: Warnings): HubReasoningConfig | undefined {
  if (!reasoning) return undefined;
  const summary = reasoning.summary ?? reasoning.generate_summary;
  const out: HubReasoningConfig = {};
  switch (reasoning.effort) {
    case null:
    case undefined:
      break;
    case 'none':
      return { disabled: true };
    case 'minimal':
      warnings.unsupported('reasoning.effort', "'minimal' is carried as 'low', the lowest effort every provider knows.");
      out.effort = 'low';
      break;
    case 'xhigh':
    case 'max':
      warnings.unsupported('reasoning.effort', `'${reasoning.effort}' is carried as 'high', the highest effort every provider knows.`);
      out.effort = 'high';
      break;
    default:
      out.effort = reasoning.effort;
  }
  if (summary) out.includeThoughts = true;
  return Object.keys(out).length > 0 ? out : undefined;
}

export function openaiResponsesRequestToHub(body: unknown): { request: HubRequest; warnings: HubWarning[] } {
  const input = parseOrThrow(responsesRequestSchema, body);
  refuseServerState(input);
  const warnings = new Warnings();
  const { system, messages } = responsesInputToHub(input.input as string | Array<Record<string, unknown>> | undefined, warnings);
  if (input.instructions) system.unshift({ type: 'text', text: input.instructions });
  if (messages.length === 0) throw invalidRequest("Invalid value for 'input': the request has no input to answer.", 'input');
  const read = responsesToolsToHub(input.tools as Record<string, unknown>[] | null | undefined, warnings);
  const chosen = toolChoiceToHub(input.tool_choice, read.tools);
  const request: HubRequest = {
    model: input.model,
    system,
    messages,
    tools: chosen.tools,
    stopSequences: [],
    stream: input.stream === true,
    extensions: {},
  };
  if (read.webSearch) request.webTools = ['web-search'];
  if (chosen.choice !== undefined) request.toolChoice = chosen.choice;
  if (input.parallel_tool_calls != null) request.parallelToolCalls = input.parallel_tool_calls;
  if (input.max_output_tokens != null) request.maxOutputTokens = input.max_output_tokens;
  if (input.temperature != null) request.temperature = input.temperature;
  if (input.top_p != null) request.topP = input.top_p;
  const responseFormat = responseFormatToHub(input.text);
  if (responseFormat) request.responseFormat = responseFormat;
  const reasoning = reasoningToHub(input.reasoning, warnings);
  if (reasoning) request.reasoning = reasoning;
  if (input.user != null) request.user = input.user;
  if (input.metadata != null) request.metadata = input.metadata;
  // Honoured on the answer (openai-responses-include.ts), which reads it from the request body; it also
  // travels as an extension, so a Responses upstream gets it too.
  warnUnavailableIncludes(input.include, warnings);
  const extra = unknownFields(input as Record<string, unknown>, KNOWN_FIELDS) ?? {};
  // text.verbosity has no hub field; it travels so a Responses upstream still gets it.
  if (input.text?.verbosity) extra.text = { verbosity: input.text.verbosity };
  if (Object.keys(extra).length > 0) request.extensions['openai-responses'] = extra;
  return { request, warnings: warnings.list };
}

// ---- hub → Responses request (for a Responses-only upstream) ----------------------------------------------

function responseFormatToResponses(format: HubResponseFormat): Record<string, unknown> {
  if (format.type !== 'json_schema') return { type: format.type };
  const out: Record<string, unknown> = { type: 'json_schema', name: format.name, schema: format.schema };
  setIfDefined(out, 'description', format.description);
  setIfDefined(out, 'strict', format.strict);
  return out;
}

/**
 * The body for an OpenAI Responses upstream. `store` is false unless the client's own Responses request
 * said otherwise: a translated request has no use for OpenAI keeping it.
 */
export function hubToOpenaiResponsesRequest(request: HubRequest, upstreamModel: string): { body: Record<string, unknown>; warnings: HubWarning[] } {
  const warnings = new Warnings();
  const input = hubMessagesToResponsesInput(request.messages, warnings);
  if (input.length === 0) throw invalidRequest('The request has no messages to send.', 'messages');
  const body: Record<string, unknown> = { model: upstreamModel };
  if (request.system.length > 0) body.instructions = request.system.map((part) => part.text).join('\n\n');
  body.input = input;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => {
      const out: Record<string, unknown> = { type: 'function', name: tool.name };
      setIfDefined(out, 'description', tool.description);
      out.parameters = tool.parameters;
      setIfDefined(out, 'strict', tool.strict);
      return out;
    });
  }
  if (request.toolChoice !== undefined) {
    body.tool_choice = typeof request.toolChoice === 'string' ? request.toolChoice : { type: 'function', name: request.toolChoice.name };
  }
  if (request.parallelToolCalls !== undefined && request.tools.length > 0) body.parallel_tool_calls = request.parallelToolCalls;
  setIfDefined(body, 'max_output_tokens', request.maxOutputTokens);
  setIfDefined(body, 'temperature', request.temperature);
  setIfDefined(body, 'top_p', request.topP);
  if (request.topK !== undefined) warnings.dropped('top_k', 'OpenAI Responses has no top_k sampling parameter.');
  if (request.frequencyPenalty !== undefined) warnings.dropped('frequency_penalty', 'OpenAI Responses has no frequency_penalty.');
  if (request.presencePenalty !== undefined) warnings.dropped('presence_penalty', 'OpenAI Responses has no presence_penalty.');
  if (request.seed !== undefined) warnings.dropped('seed', 'OpenAI Responses has no seed.');
  if (request.stopSequences.length > 0) warnings.dropped('stop', 'OpenAI Responses has no stop sequences.');
  const ownText = request.extensions['openai-responses']?.text as Record<string, unknown> | undefined;
  if (request.responseFormat || ownText) body.text = { ...ownText, ...(request.responseFormat ? { format: responseFormatToResponses(request.responseFormat) } : {}) };
  const effort = impliedEffort(request.reasoning);
  if (effort) body.reasoning = { effort, ...(request.reasoning?.includeThoughts ? { summary: 'auto' } : {}) };
  body.stream = request.stream;
  setIfDefined(body, 'user', request.user);
  setIfDefined(body, 'metadata', request.metadata);
  restoreExtensions(body, request, 'openai-responses');
  if (!('store' in body)) body.store = false;
  warnForeignExtensions(request, 'openai-responses', warnings);
  warnUnservedWebTools(request, warnings, 'this OpenAI Responses channel');
  return { body, warnings: warnings.list };
}
