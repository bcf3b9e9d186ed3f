// OpenAI chat completion requests ⇄ the hub request.
import { invalidRequest } from '../../gateway-errors.ts';
import { impliedEffort } from '../../hub/hub-reasoning.ts';
import type { HubReasoningConfig, HubRequest, HubResponseFormat, HubToolChoice } from '../../hub/hub-request.ts';
import { parseOrThrow, unknownFields } from '../../hub/hub-validation.ts';
import { Warnings, type HubWarning } from '../../hub/hub-warnings.ts';
import { restoreExtensions, setIfDefined, warnForeignExtensions } from '../shared/extensions.ts';
import { warnUnservedWebTools } from '../shared/server-tools.ts';
import { hubMessagesToOpenAI, openaiMessagesToHub } from './openai-chat-messages.ts';
import { openaiChatRequestSchema, type OpenAIChatRequest } from './openai-chat-schema.ts';

const KNOWN_FIELDS = new Set([
  'model', 'messages', 'tools', 'tool_choice', 'parallel_tool_calls', 'max_tokens', 'max_completion_tokens',
  'temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'seed', 'stop', 'response_format',
  'reasoning_effort', 'stream', 'stream_options', 'user', 'metadata',
]);

function toolChoiceToHub(choice: OpenAIChatRequest['tool_choice']): HubToolChoice | undefined {
  if (choice === null || choice === undefined) return undefined;
  if (typeof choice === 'string') return choice;
  return { type: 'tool', name: choice.function.name };
}

function responseFormatToHub(format: OpenAIChatRequest['response_format']): HubResponseFormat | undefined {
  if (!format) return undefined;
  if (format.type !== 'json_schema') return { type: format.type };
  const spec = format.json_schema;
  const out: HubResponseFormat = { type: 'json_schema', name: spec.name, schema: spec.schema ?? {} };
  if (spec.description !== undefined) out.description = spec.description;
  if (spec.strict !== undefined && spec.strict !== null) out.strict = spec.strict;
  return out;
}

function reasoningToHub(effort: OpenAIChatRequest['reasoning_effort'], warnings: Warnings): HubReasoningConfig | undefined {
  switch (effort) {
    case null:
    case undefined:
      return undefined;
    case 'none':
      return { disabled: true };
    case 'minimal':
      warnings.unsupported('reasoning_effort', "'minimal' is carried as 'low', the lowest effort every provider knows.");
      return { effort: 'low' };
    case 'xhigh':
    case 'max':
      warnings.unsupported('reasoning_effort', `'${effort}' is carried as 'high', the highest effort every provider knows.`);
      return { effort: 'high' };
    default:
      return { effort };
  }
}

export function openaiChatRequestToHub(body: unknown): { request: HubRequest; warnings: HubWarning[] } {
  const input = parseOrThrow(openaiChatRequestSchema, body);
  const warnings = new Warnings();
  const { system, messages } = openaiMessagesToHub(input.messages, warnings);
  const request: HubRequest = {
    model: input.model,
    system,
    messages,
    tools: (input.tools ?? []).map((tool) => {
      const fn = tool.function;
      return {
        name: fn.name,
        ...(fn.description !== undefined ? { description: fn.description } : {}),
        parameters: fn.parameters ?? { type: 'object', properties: {} },
        ...(fn.strict !== undefined && fn.strict !== null ? { strict: fn.strict } : {}),
      };
    }),
    stopSequences: typeof input.stop === 'string' ? [input.stop] : (input.stop ?? []),
    stream: input.stream === true,
    extensions: {},
  };
  const toolChoice = toolChoiceToHub(input.tool_choice);
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  if (input.parallel_tool_calls !== undefined && input.parallel_tool_calls !== null) request.parallelToolCalls = input.parallel_tool_calls;
  const maxTokens = input.max_completion_tokens ?? input.max_tokens;
  if (maxTokens !== undefined && maxTokens !== null) request.maxOutputTokens = maxTokens;
  if (input.temperature != null) request.temperature = input.temperature;
  if (input.top_p != null) request.topP = input.top_p;
  if (input.frequency_penalty != null) request.frequencyPenalty = input.frequency_penalty;
  if (input.presence_penalty != null) request.presencePenalty = input.presence_penalty;
  if (input.seed != null) request.seed = input.seed;
  const responseFormat = responseFormatToHub(input.response_format);
  if (responseFormat) request.responseFormat = responseFormat;
  const reasoning = reasoningToHub(input.reasoning_effort, warnings);
  if (reasoning) request.reasoning = reasoning;
  if (input.stream_options?.include_usage !== undefined) request.streamIncludeUsage = input.stream_options.include_usage;
  if (input.user != null) request.user = input.user;
  if (input.metadata != null) request.metadata = input.metadata;
  const extra = unknownFields(input as Record<string, unknown>, KNOWN_FIELDS) ?? {};
  // Several choices per request is OpenAI-only; it travels as an extension so other targets can warn.
  if (input.n != null && input.n !== 1) extra.n = input.n;
  else delete extra.n;
  if (Object.keys(extra).length > 0) request.extensions['openai-chat'] = extra;
  return { request, warnings: warnings.list };
}

function toolChoiceToOpenAI(choice: HubToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function responseFormatToOpenAI(format: HubResponseFormat): unknown {
  if (format.type !== 'json_schema') return { type: format.type };
  const spec: Record<string, unknown> = { name: format.name, schema: format.schema };
  setIfDefined(spec, 'description', format.description);
  setIfDefined(spec, 'strict', format.strict);
  return { type: 'json_schema', json_schema: spec };
}

/**
 * The body for an OpenAI-compatible upstream. max_tokens is used because every compatible server knows it;
 * OpenAI's reasoning models refuse it, so a request that asks for reasoning gets max_completion_tokens.
 */
export function hubToOpenaiChatRequest(request: HubRequest, upstreamModel: string): { body: Record<string, unknown>; warnings: HubWarning[] } {
  const warnings = new Warnings();
  const body: Record<string, unknown> = {
    model: upstreamModel,
    messages: hubMessagesToOpenAI(request.system, request.messages, warnings),
  };
  if ((body.messages as unknown[]).length === 0) throw invalidRequest('The request has no messages to send.', 'messages');
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => {
      const fn: Record<string, unknown> = { name: tool.name };
      setIfDefined(fn, 'description', tool.description);
      fn.parameters = tool.parameters;
      setIfDefined(fn, 'strict', tool.strict);
      return { type: 'function', function: fn };
    });
  }
  if (request.toolChoice !== undefined) body.tool_choice = toolChoiceToOpenAI(request.toolChoice);
  if (request.parallelToolCalls !== undefined && request.tools.length > 0) body.parallel_tool_calls = request.parallelToolCalls;
  const effort = impliedEffort(request.reasoning);
  if (request.maxOutputTokens !== undefined) body[effort ? 'max_completion_tokens' : 'max_tokens'] = request.maxOutputTokens;
  setIfDefined(body, 'temperature', request.temperature);
  setIfDefined(body, 'top_p', request.topP);
  setIfDefined(body, 'frequency_penalty', request.frequencyPenalty);
  setIfDefined(body, 'presence_penalty', request.presencePenalty);
  setIfDefined(body, 'seed', request.seed);
  if (request.topK !== undefined) warnings.dropped('top_k', 'OpenAI chat has no top_k sampling parameter.');
  if (request.stopSequences.length > 0) body.stop = request.stopSequences;
  if (request.responseFormat) body.response_format = responseFormatToOpenAI(request.responseFormat);
  if (effort) body.reasoning_effort = effort;
  if (request.reasoning?.includeThoughts) {
    warnings.unsupported('reasoning.include_thoughts', 'OpenAI chat does not return reasoning text; only its token count is reported.');
  }
  body.stream = request.stream;
  // Usage is always asked for: metering needs it even when the client did not want the usage chunk.
  if (request.stream) body.stream_options = { include_usage: true };
  setIfDefined(body, 'user', request.user);
  setIfDefined(body, 'metadata', request.metadata);
  if (request.continuesLastMessage) {
    // vLLM's names for "continue this assistant message instead of starting a new one".
    body.continue_final_message = true;
    body.add_generation_prompt = false;
  }
  restoreExtensions(body, request, 'openai-chat');
  warnForeignExtensions(request, 'openai-chat', warnings);
  warnUnservedWebTools(request, warnings, 'OpenAI chat');
  return { body, warnings: warnings.list };
}
