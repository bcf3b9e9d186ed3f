// Anthropic /v1/messages requests ⇄ the hub request.
import { invalidRequest } from '../../gateway-errors.ts';
import { impliedBudget } from '../../hub/hub-reasoning.ts';
import { foldSystemMessages } from '../../hub/hub-system-messages.ts';
import type { HubReasoningConfig, HubReasoningEffort, HubRequest, HubSystemMessage, HubTextPart, HubToolChoice, HubWebTool } from '../../hub/hub-request.ts';
import { anthropicWebTool, anthropicWebToolsToAdd } from './anthropic-messages-web-tools.ts';
import { parseOrThrow, unknownFields } from '../../hub/hub-validation.ts';
import { Warnings, type HubWarning } from '../../hub/hub-warnings.ts';
import { restoreExtensions, setIfDefined, warnForeignExtensions } from '../shared/extensions.ts';
import { anthropicMessagesToHub, hubMessagesToAnthropic } from './anthropic-messages-content.ts';
import { anthropicRequestSchema, type AnthropicRequest } from './anthropic-messages-schema.ts';

/** Anthropic requires max_tokens; requests from formats where it is optional get this. */
const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;
/** Anthropic's smallest thinking budget. */
const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

const KNOWN_FIELDS = new Set([
  'model', 'messages', 'max_tokens', 'system', 'stop_sequences', 'stream', 'temperature', 'top_p', 'top_k',
  'tools', 'tool_choice', 'thinking', 'output_config', 'metadata',
]);

const EFFORTS = new Set<string>(['low', 'medium', 'high']);

function reasoningToHub(input: AnthropicRequest): HubReasoningConfig | undefined {
  const rawEffort = input.output_config?.effort ?? undefined;
  const effort = rawEffort && EFFORTS.has(rawEffort) ? (rawEffort as HubReasoningEffort) : rawEffort ? 'high' : undefined;
  const thinking = input.thinking;
  if (!thinking) return effort ? { effort } : undefined;
  if (thinking.type === 'disabled') return { disabled: true };
  // `display: "omitted"` thinks without showing the thinking; adaptive and between_tools think as needed.
  const out: HubReasoningConfig = { includeThoughts: (thinking as { display?: unknown }).display !== 'omitted' };
  if (thinking.type === 'enabled') out.budgetTokens = thinking.budget_tokens as number;
  if (effort) out.effort = effort;
  return out;
}

function toolChoiceToHub(choice: AnthropicRequest['tool_choice']): HubToolChoice | undefined {
  if (!choice) return undefined;
  switch (choice.type) {
    case 'any':
      return 'required';
    case 'tool':
      return { type: 'tool', name: (choice as { name: string }).name };
    default:
      return choice.type;
  }
}

/** Prompt-caching breakpoints anywhere in the request: the hub does not carry them. */
function hasCacheControl(input: AnthropicRequest): boolean {
  const marked = (block: unknown) => typeof block === 'object' && block !== null && 'cache_control' in block && Boolean(block.cache_control);
  if (Array.isArray(input.system) && input.system.some(marked)) return true;
  if (input.tools?.some(marked)) return true;
  return input.messages.some((message) => Array.isArray(message.content) && message.content.some(marked));
}

export function anthropicMessagesRequestToHub(body: unknown): { request: HubRequest; warnings: HubWarning[] } {
  return parsedAnthropicRequestToHub(parseOrThrow(anthropicRequestSchema, body));
}

/**
 * A Messages call checked against the wire schema, whose translation into the hub waits until a channel of
 * another format needs it: an Anthropic channel gets the body as sent, so a block only Anthropic can take
 * (a Files API image, a server tool's result) must not refuse the call before a channel is chosen.
 */
export function anthropicMessagesCall(body: unknown): { model: string; stream: boolean; maxTokens: number; hubRequest: () => { request: HubRequest; warnings: HubWarning[] } } {
  const input = parseOrThrow(anthropicRequestSchema, body);
  let converted: { request: HubRequest; warnings: HubWarning[] } | undefined;
  return { model: input.model, stream: input.stream === true, maxTokens: input.max_tokens, hubRequest: () => (converted ??= parsedAnthropicRequestToHub(input)) };
}

function parsedAnthropicRequestToHub(input: AnthropicRequest): { request: HubRequest; warnings: HubWarning[] } {
  const warnings = new Warnings();
  const system: HubTextPart[] = typeof input.system === 'string'
    ? (input.system === '' ? [] : [{ type: 'text', text: input.system }])
    : (input.system ?? []).map((block) => ({ type: 'text', text: block.text }));
  const extensions: Record<string, unknown> = unknownFields(input as Record<string, unknown>, KNOWN_FIELDS) ?? {};
  const tools: HubRequest['tools'] = [];
  const serverTools: unknown[] = [];
  const webTools: HubWebTool[] = [];
  for (const tool of input.tools ?? []) {
    // Server tools (web search, code execution, …) have a type and run at Anthropic: nothing to translate.
    if (tool.type && tool.type !== 'custom') {
      serverTools.push(tool);
      const web = anthropicWebTool(tool.type);
      if (web && !webTools.includes(web)) webTools.push(web);
      continue;
    }
    tools.push({
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      parameters: tool.input_schema ?? { type: 'object', properties: {} },
      ...(tool.strict !== undefined ? { strict: tool.strict } : {}),
    });
  }
  if (serverTools.length > 0) extensions.server_tools = serverTools;
  const messages = anthropicMessagesToHub(input.messages, warnings);
  // System messages before the first turn are part of the system prompt; later ones stay where they were said.
  while (messages[0]?.role === 'system') system.push(...(messages.shift() as HubSystemMessage).content);
  const request: HubRequest = {
    model: input.model,
    system,
    messages,
    tools,
    maxOutputTokens: input.max_tokens,
    stopSequences: input.stop_sequences ?? [],
    stream: input.stream === true,
    extensions: {},
  };
  if (webTools.length > 0) request.webTools = webTools;
  const toolChoice = toolChoiceToHub(input.tool_choice);
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  if (input.tool_choice && 'disable_parallel_tool_use' in input.tool_choice && input.tool_choice.disable_parallel_tool_use !== undefined) {
    request.parallelToolCalls = !input.tool_choice.disable_parallel_tool_use;
  }
  if (input.temperature !== undefined) request.temperature = input.temperature;
  if (input.top_p !== undefined) request.topP = input.top_p;
  if (input.top_k !== undefined) request.topK = input.top_k;
  const format = input.output_config?.format;
  if (format) request.responseFormat = { type: 'json_schema', name: 'response', schema: format.schema };
  const reasoning = reasoningToHub(input);
  if (reasoning) request.reasoning = reasoning;
  if (hasCacheControl(input)) {
    warnings.dropped('cache_control', 'prompt-caching breakpoints are not carried through the hub; the upstream caches automatically or not at all.');
  }
  if (input.metadata?.user_id) request.user = input.metadata.user_id;
  if (Object.keys(extensions).length > 0) request.extensions['anthropic-messages'] = extensions;
  return { request, warnings: warnings.list };
}

/** Thinking and max_tokens together: Anthropic wants 1024 <= budget < max_tokens (Claude on Bedrock too). */
export function thinkingAndMaxTokens(request: HubRequest, warnings: Warnings): { thinking?: Record<string, unknown>; maxTokens: number } {
  if (request.reasoning?.disabled) return { thinking: { type: 'disabled' }, maxTokens: request.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS };
  let budget = impliedBudget(request.reasoning);
  if (budget === undefined && request.reasoning?.includeThoughts) budget = ANTHROPIC_MIN_THINKING_BUDGET;
  if (budget === undefined) return { maxTokens: request.maxOutputTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS };
  if (budget < ANTHROPIC_MIN_THINKING_BUDGET) {
    warnings.unsupported('reasoning.budget_tokens', `Anthropic's smallest thinking budget is ${ANTHROPIC_MIN_THINKING_BUDGET} tokens; ${budget} was raised to it.`);
    budget = ANTHROPIC_MIN_THINKING_BUDGET;
  }
  let maxTokens = request.maxOutputTokens ?? budget + ANTHROPIC_DEFAULT_MAX_TOKENS;
  if (budget >= maxTokens) {
    if (maxTokens <= ANTHROPIC_MIN_THINKING_BUDGET) {
      throw invalidRequest(`max_tokens (${maxTokens}) must be above ${ANTHROPIC_MIN_THINKING_BUDGET} to think with Anthropic models.`, 'max_tokens');
    }
    warnings.unsupported('reasoning.budget_tokens', `the thinking budget must be below max_tokens; ${budget} was lowered to ${maxTokens - 1}.`);
    budget = maxTokens - 1;
  }
  return { thinking: { type: 'enabled', budget_tokens: budget }, maxTokens };
}

type AnthropicTurn = { role: string; content: { type?: unknown }[] };

/** Whether the last assistant turn, when it calls tools, begins with a thinking block, as Anthropic requires. */
function toolLoopKeepsThinking(messages: AnthropicTurn[]): boolean {
  const last = messages.findLast((message) => message.role === 'assistant');
  if (!last || !last.content.some((block) => block.type === 'tool_use')) return true;
  const first = last.content[0]?.type;
  return first === 'thinking' || first === 'redacted_thinking';
}

function samplingToAnthropic(body: Record<string, unknown>, request: HubRequest, thinking: boolean, warnings: Warnings): void {
  if (request.temperature !== undefined) {
    if (thinking && request.temperature !== 1) warnings.dropped('temperature', 'Anthropic does not take a temperature while thinking.');
    else if (request.temperature > 1) {
      warnings.unsupported('temperature', `Anthropic's temperature goes from 0 to 1; ${request.temperature} was sent as 1.`);
      body.temperature = 1;
    } else body.temperature = request.temperature;
  }
  if (request.topP !== undefined) {
    if (thinking && request.topP < 0.95) warnings.dropped('top_p', 'Anthropic takes top_p from 0.95 up while thinking.');
    else body.top_p = request.topP;
  }
  if (request.topK !== undefined) {
    if (thinking) warnings.dropped('top_k', 'Anthropic does not take top_k while thinking.');
    else body.top_k = request.topK;
  }
  if (request.frequencyPenalty !== undefined) warnings.dropped('frequency_penalty', 'Anthropic has no frequency penalty.');
  if (request.presencePenalty !== undefined) warnings.dropped('presence_penalty', 'Anthropic has no presence penalty.');
  if (request.seed !== undefined) warnings.dropped('seed', 'Anthropic has no seed.');
}

function toolChoiceToAnthropic(request: HubRequest): Record<string, unknown> | undefined {
  const choice = request.toolChoice;
  let out: Record<string, unknown> | undefined;
  if (choice === 'auto' || choice === 'none') out = { type: choice };
  else if (choice === 'required') out = { type: 'any' };
  else if (choice) out = { type: 'tool', name: choice.name };
  if (request.parallelToolCalls === false && out?.type !== 'none') out = { ...(out ?? { type: 'auto' }), disable_parallel_tool_use: true };
  return out;
}

export function hubToAnthropicMessagesRequest(request: HubRequest, upstreamModel: string): { body: Record<string, unknown>; warnings: HubWarning[] } {
  const warnings = new Warnings();
  const { thinking, maxTokens } = thinkingAndMaxTokens(request, warnings);
  // Claude on Vertex and Anthropic-compatible servers take system text only at the top: folded there.
  const folded = foldSystemMessages(request.system, request.messages, warnings, 'Anthropic');
  const system = folded.system.map((part) => ({ type: 'text', text: part.text }));
  if (request.responseFormat?.type === 'json_object') {
    // Anthropic has no JSON mode without a schema: the instruction is the closest equivalent.
    warnings.unsupported('response_format', 'Anthropic has no JSON mode without a schema; a system instruction asks for a JSON object instead.');
    system.push({ type: 'text', text: 'Respond with a single valid JSON object and nothing else.' });
  }
  const body: Record<string, unknown> = {
    model: upstreamModel,
    max_tokens: maxTokens,
    messages: hubMessagesToAnthropic(folded.messages, warnings),
  };
  if ((body.messages as unknown[]).length === 0) throw invalidRequest('The request has no messages to send.', 'messages');
  if (system.length > 0) body.system = system;
  if (thinking?.type === 'enabled' && !toolLoopKeepsThinking(body.messages as AnthropicTurn[])) {
    // Anthropic refuses thinking when the turn that called the tools has no thinking block of its own (it was
    // another provider's, left out above): this request goes without thinking rather than failing.
    warnings.dropped('thinking', 'the last assistant turn calls tools without an Anthropic thinking block (another provider wrote it); thinking was turned off for this request.');
  } else if (thinking) body.thinking = thinking;
  samplingToAnthropic(body, request, thinking?.type === 'enabled', warnings);
  if (request.stopSequences.length > 0) body.stop_sequences = request.stopSequences;
  const serverTools = [
    ...((request.extensions['anthropic-messages']?.server_tools as unknown[] | undefined) ?? []),
    ...anthropicWebToolsToAdd(request),
  ];
  if (request.tools.length > 0 || serverTools.length > 0) {
    body.tools = [
      ...request.tools.map((tool) => {
        const out: Record<string, unknown> = { name: tool.name };
        setIfDefined(out, 'description', tool.description);
        out.input_schema = tool.parameters;
        setIfDefined(out, 'strict', tool.strict);
        return out;
      }),
      ...serverTools,
    ];
    setIfDefined(body, 'tool_choice', toolChoiceToAnthropic(request));
  }
  if (request.responseFormat?.type === 'json_schema') body.output_config = { format: { type: 'json_schema', schema: request.responseFormat.schema } };
  body.stream = request.stream;
  if (request.user) body.metadata = { user_id: request.user };
  if (request.metadata) warnings.dropped('metadata', 'Anthropic metadata only holds user_id; the other metadata was not sent.');
  const own = request.extensions['anthropic-messages'];
  if (own) {
    const { server_tools: _serverTools, ...rest } = own;
    restoreExtensions(body, { ...request, extensions: { 'anthropic-messages': rest } }, 'anthropic-messages');
  }
  warnForeignExtensions(request, 'anthropic-messages', warnings);
  return { body, warnings: warnings.list };
}
