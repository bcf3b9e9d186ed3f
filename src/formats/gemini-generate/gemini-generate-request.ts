// Gemini generateContent requests ⇄ the hub request. The model and streaming are named by the URL
// (models/{model}:streamGenerateContent), so they come in through the context, not the body.
import { foldSystemMessages } from '../../hub/hub-system-messages.ts';
import type { RequestToHubContext } from '../../hub/hub-format.ts';
import { impliedBudget } from '../../hub/hub-reasoning.ts';
import type { HubReasoningConfig, HubRequest, HubResponseFormat, HubToolChoice } from '../../hub/hub-request.ts';
import { parseOrThrow, unknownFields } from '../../hub/hub-validation.ts';
import { Warnings, type HubWarning } from '../../hub/hub-warnings.ts';
import { setIfDefined, warnForeignExtensions } from '../shared/extensions.ts';
import { geminiContentsToHub, hubMessagesToGemini } from './gemini-generate-content.ts';
import { openApiSchemaToJsonSchema } from './gemini-generate-json-schema.ts';
import { normalizeGeminiKeys } from './gemini-generate-keys.ts';
import { geminiRequestSchema, type GeminiRequest } from './gemini-generate-schema.ts';

const KNOWN_FIELDS = new Set(['model', 'contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig']);
const KNOWN_GENERATION_FIELDS = new Set([
  'stopSequences', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'maxOutputTokens', 'temperature',
  'topP', 'topK', 'seed', 'presencePenalty', 'frequencyPenalty', 'thinkingConfig',
]);

type GenerationConfig = NonNullable<GeminiRequest['generationConfig']>;

function responseFormatToHub(config: GenerationConfig): HubResponseFormat | undefined {
  if (config.responseMimeType !== 'application/json') return config.responseMimeType === 'text/plain' ? { type: 'text' } : undefined;
  const schema = config.responseJsonSchema ?? (config.responseSchema ? (openApiSchemaToJsonSchema(config.responseSchema) as Record<string, unknown>) : undefined);
  return schema ? { type: 'json_schema', name: 'response', schema } : { type: 'json_object' };
}

function reasoningToHub(config: GenerationConfig, warnings: Warnings): HubReasoningConfig | undefined {
  const thinking = config.thinkingConfig;
  if (!thinking) return undefined;
  if (thinking.thinkingBudget === 0) return { disabled: true };
  const out: HubReasoningConfig = {};
  // -1 is Gemini's dynamic thinking: on, with the model choosing the budget.
  if (thinking.thinkingBudget !== undefined && thinking.thinkingBudget > 0) out.budgetTokens = thinking.thinkingBudget;
  switch (thinking.thinkingLevel) {
    case 'MINIMAL':
      warnings.unsupported('generationConfig.thinkingConfig.thinkingLevel', "'MINIMAL' is carried as low, the lowest effort every provider knows.");
      out.effort = 'low';
      break;
    case 'LOW':
    case 'MEDIUM':
    case 'HIGH':
      out.effort = thinking.thinkingLevel.toLowerCase() as 'low' | 'medium' | 'high';
      break;
  }
  if (thinking.includeThoughts !== undefined) out.includeThoughts = thinking.includeThoughts;
  return out;
}

function toolChoiceToHub(input: GeminiRequest, warnings: Warnings): HubToolChoice | undefined {
  const config = input.toolConfig?.functionCallingConfig;
  switch (config?.mode) {
    case 'AUTO':
      return 'auto';
    case 'NONE':
      return 'none';
    case 'VALIDATED':
      warnings.unsupported('toolConfig.functionCallingConfig.mode', "'VALIDATED' is carried as auto.");
      return 'auto';
    case 'ANY': {
      const allowed = config.allowedFunctionNames ?? [];
      if (allowed.length === 1) return { type: 'tool', name: allowed[0]! };
      if (allowed.length > 1) warnings.unsupported('toolConfig.functionCallingConfig.allowedFunctionNames', 'several allowed functions are carried as "any tool".');
      return 'required';
    }
    default:
      return undefined;
  }
}

export function geminiGenerateRequestToHub(body: unknown, ctx: RequestToHubContext = {}): { request: HubRequest; warnings: HubWarning[] } {
  const input = parseOrThrow(geminiRequestSchema, normalizeGeminiKeys(body));
  const warnings = new Warnings();
  const config = input.generationConfig ?? {};
  const extensions: Record<string, unknown> = unknownFields(input as Record<string, unknown>, KNOWN_FIELDS) ?? {};
  const extraConfig = unknownFields(config as Record<string, unknown>, KNOWN_GENERATION_FIELDS);
  if (extraConfig) extensions.generationConfig = extraConfig;
  const tools: HubRequest['tools'] = [];
  const serverTools: unknown[] = [];
  for (const tool of input.tools ?? []) {
    const { functionDeclarations, ...rest } = tool;
    for (const fn of functionDeclarations ?? []) {
      tools.push({
        name: fn.name,
        ...(fn.description !== undefined ? { description: fn.description } : {}),
        parameters: fn.parametersJsonSchema ?? (fn.parameters ? (openApiSchemaToJsonSchema(fn.parameters) as Record<string, unknown>) : { type: 'object', properties: {} }),
      });
    }
    // Google Search, code execution and the like run at Google: carried for a Gemini upstream only.
    if (Object.keys(rest).length > 0) serverTools.push(rest);
  }
  if (serverTools.length > 0) extensions.server_tools = serverTools;
  const system = typeof input.systemInstruction === 'string'
    ? [{ type: 'text' as const, text: input.systemInstruction }]
    : (input.systemInstruction?.parts ?? []).filter((p) => p.text !== undefined).map((p) => ({ type: 'text' as const, text: p.text ?? '' }));
  const request: HubRequest = {
    model: ctx.model ?? input.model ?? '',
    system,
    messages: geminiContentsToHub(input.contents, ctx.generateId),
    tools,
    stopSequences: config.stopSequences ?? [],
    stream: ctx.stream === true,
    extensions: {},
  };
  const toolChoice = toolChoiceToHub(input, warnings);
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  if (config.maxOutputTokens !== undefined) request.maxOutputTokens = config.maxOutputTokens;
  if (config.temperature !== undefined) request.temperature = config.temperature;
  if (config.topP !== undefined) request.topP = config.topP;
  if (config.topK !== undefined) request.topK = config.topK;
  if (config.seed !== undefined) request.seed = config.seed;
  if (config.presencePenalty !== undefined) request.presencePenalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) request.frequencyPenalty = config.frequencyPenalty;
  const responseFormat = responseFormatToHub(config);
  if (responseFormat) request.responseFormat = responseFormat;
  else if (config.responseMimeType !== undefined) extensions.generationConfig = { ...(extensions.generationConfig as object), responseMimeType: config.responseMimeType };
  const reasoning = reasoningToHub(config, warnings);
  if (reasoning) request.reasoning = reasoning;
  if (Object.keys(extensions).length > 0) request.extensions['gemini-generate'] = extensions;
  return { request, warnings: warnings.list };
}

function toolConfigToGemini(choice: HubToolChoice): Record<string, unknown> {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
}

function thinkingConfigToGemini(reasoning: HubReasoningConfig | undefined): Record<string, unknown> | undefined {
  if (!reasoning) return undefined;
  if (reasoning.disabled) return { thinkingBudget: 0 };
  const out: Record<string, unknown> = {};
  // A budget works on Gemini 2.5 and 3 alike (3 also takes thinkingLevel, 2.5 does not).
  setIfDefined(out, 'thinkingBudget', impliedBudget(reasoning));
  setIfDefined(out, 'includeThoughts', reasoning.includeThoughts);
  return Object.keys(out).length > 0 ? out : undefined;
}

function generationConfigToGemini(request: HubRequest, warnings: Warnings): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  setIfDefined(config, 'maxOutputTokens', request.maxOutputTokens);
  setIfDefined(config, 'temperature', request.temperature);
  setIfDefined(config, 'topP', request.topP);
  setIfDefined(config, 'topK', request.topK);
  setIfDefined(config, 'seed', request.seed);
  setIfDefined(config, 'presencePenalty', request.presencePenalty);
  setIfDefined(config, 'frequencyPenalty', request.frequencyPenalty);
  if (request.stopSequences.length > 0) config.stopSequences = request.stopSequences;
  const format = request.responseFormat;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    config.responseJsonSchema = format.schema;
  }
  setIfDefined(config, 'thinkingConfig', thinkingConfigToGemini(request.reasoning));
  if (request.parallelToolCalls === false) warnings.dropped('parallel_tool_calls', 'Gemini cannot be limited to one function call per turn.');
  const own = request.extensions['gemini-generate']?.generationConfig as Record<string, unknown> | undefined;
  for (const [key, value] of Object.entries(own ?? {})) if (!(key in config)) config[key] = value;
  return config;
}

/** The body for models/{upstreamModel}:generateContent; the model and streaming go in the URL. */
export function hubToGeminiGenerateRequest(request: HubRequest, _upstreamModel: string): { body: Record<string, unknown>; warnings: HubWarning[] } {
  const warnings = new Warnings();
  const { system, messages } = foldSystemMessages(request.system, request.messages, warnings, 'Gemini');
  const body: Record<string, unknown> = { contents: hubMessagesToGemini(messages, warnings) };
  if (system.length > 0) body.systemInstruction = { parts: system.map((part) => ({ text: part.text })) };
  const own = request.extensions['gemini-generate'] ?? {};
  const serverTools = (own.server_tools as unknown[] | undefined) ?? [];
  if (request.tools.length > 0 || serverTools.length > 0) {
    const declarations = request.tools.map((tool) => {
      const fn: Record<string, unknown> = { name: tool.name };
      setIfDefined(fn, 'description', tool.description);
      fn.parametersJsonSchema = tool.parameters;
      return fn;
    });
    body.tools = [...(declarations.length > 0 ? [{ functionDeclarations: declarations }] : []), ...serverTools];
    if (request.toolChoice !== undefined) body.toolConfig = toolConfigToGemini(request.toolChoice);
  }
  const config = generationConfigToGemini(request, warnings);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  if (request.user !== undefined) warnings.dropped('user', 'Gemini has no end-user field.');
  if (request.metadata !== undefined) warnings.dropped('metadata', 'Gemini has no request metadata.');
  for (const [key, value] of Object.entries(own)) {
    if (key !== 'server_tools' && key !== 'generationConfig' && !(key in body)) body[key] = value;
  }
  warnForeignExtensions(request, 'gemini-generate', warnings);
  return { body, warnings: warnings.list };
}
