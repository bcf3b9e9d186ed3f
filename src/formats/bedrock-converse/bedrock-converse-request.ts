// Converse requests ⇄ the hub. The model is in the URL (`/model/{modelId}/converse`), and so is streaming
// (`/converse-stream`), so neither is in the body. Model-specific knobs (top_k, thinking) go in Converse's
// additionalModelRequestFields, whose shape depends on the model: written for Claude models, whose shape
// AWS documents (bedrock-converse-claude-fields.ts), and dropped with a warning for the others.
import { foldSystemMessages } from '../../hub/hub-system-messages.ts';
import type { RequestToHubContext } from '../../hub/hub-format.ts';
import type { HubRequest, HubToolChoice } from '../../hub/hub-request.ts';
import { parseOrThrow, unknownFields } from '../../hub/hub-validation.ts';
import { Warnings, type HubWarning } from '../../hub/hub-warnings.ts';
import { restoreExtensions, setIfDefined, warnForeignExtensions } from '../shared/extensions.ts';
import { warnUnservedWebTools } from '../shared/server-tools.ts';
import { converseMessagesToHub, hubMessagesToConverse } from './bedrock-converse-content.ts';
import { claudeConverseFields, isClaudeOnBedrock, type ClaudeConverseFields } from './bedrock-converse-claude-fields.ts';
import { converseRequestSchema, type ConverseRequest } from './bedrock-converse-schema.ts';

const KNOWN_FIELDS = new Set(['modelId', 'messages', 'system', 'inferenceConfig', 'toolConfig', 'requestMetadata']);

function toolChoiceToHub(choice: NonNullable<ConverseRequest['toolConfig']>['toolChoice']): HubToolChoice | undefined {
  if (!choice) return undefined;
  if (choice.tool) return { type: 'tool', name: choice.tool.name };
  if (choice.any) return 'required';
  return choice.auto ? 'auto' : undefined;
}

export function converseRequestToHub(body: unknown, ctx: RequestToHubContext = {}): { request: HubRequest; warnings: HubWarning[] } {
  const input = parseOrThrow(converseRequestSchema, body);
  const warnings = new Warnings();
  const extensions = unknownFields(input as Record<string, unknown>, KNOWN_FIELDS);
  const inference = input.inferenceConfig ?? {};
  const request: HubRequest = {
    model: ctx.model ?? String((body as { modelId?: unknown }).modelId ?? ''),
    system: (input.system ?? []).flatMap((block) => (block.text !== undefined ? [{ type: 'text' as const, text: block.text }] : [])),
    messages: converseMessagesToHub(input.messages, warnings),
    tools: (input.toolConfig?.tools ?? []).flatMap((tool) => (tool.toolSpec
      ? [{ name: tool.toolSpec.name, ...(tool.toolSpec.description !== undefined ? { description: tool.toolSpec.description } : {}), parameters: tool.toolSpec.inputSchema.json }]
      : [])),
    stopSequences: inference.stopSequences ?? [],
    stream: ctx.stream === true,
    extensions: extensions ? { 'bedrock-converse': extensions } : {},
  };
  const toolChoice = toolChoiceToHub(input.toolConfig?.toolChoice);
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  if (inference.maxTokens !== undefined) request.maxOutputTokens = inference.maxTokens;
  if (inference.temperature !== undefined) request.temperature = inference.temperature;
  if (inference.topP !== undefined) request.topP = inference.topP;
  if (input.requestMetadata) request.metadata = input.requestMetadata;
  return { request, warnings: warnings.list };
}

function toolConfigToConverse(request: HubRequest, warnings: Warnings): Record<string, unknown> | undefined {
  if (request.tools.length === 0) return undefined;
  const usesTools = request.messages.some((message) => message.role === 'tool' || (message.role === 'assistant' && message.content.some((part) => part.type === 'tool-call')));
  // Converse has no "none": without tool blocks in the history the tools are simply not offered; with them
  // Converse requires toolConfig, so the tools stay and the model may still call one.
  if (request.toolChoice === 'none' && !usesTools) return undefined;
  const tools = request.tools.map((tool) => ({
    toolSpec: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), inputSchema: { json: tool.parameters } },
  }));
  const config: Record<string, unknown> = { tools };
  const choice = request.toolChoice;
  if (choice === 'none') warnings.unsupported('tool_choice', "Converse has no tool choice 'none' once tools were used; the tools were offered with 'auto'.");
  else if (choice === 'required') config.toolChoice = { any: {} };
  else if (choice === 'auto') config.toolChoice = { auto: {} };
  else if (choice) config.toolChoice = { tool: { name: choice.name } };
  if (request.parallelToolCalls === false) warnings.dropped('parallel_tool_calls', 'Converse cannot limit a turn to one tool call.');
  return config;
}

function warnDropped(request: HubRequest, warnings: Warnings, claude: boolean): void {
  if (request.topK !== undefined && !claude) warnings.dropped('top_k', "Converse takes top_k only in the model's own additionalModelRequestFields.");
  if (request.frequencyPenalty !== undefined) warnings.dropped('frequency_penalty', 'Converse has no frequency penalty.');
  if (request.presencePenalty !== undefined) warnings.dropped('presence_penalty', 'Converse has no presence penalty.');
  if (request.seed !== undefined) warnings.dropped('seed', 'Converse has no seed.');
  if (request.reasoning && !request.reasoning.disabled && !claude) warnings.dropped('reasoning', "Converse turns reasoning on in the model's own additionalModelRequestFields; it was not requested.");
  if (request.responseFormat && request.responseFormat.type !== 'text') warnings.dropped('response_format', 'Converse has no structured output setting; the answer is not constrained to JSON.');
  if (request.user !== undefined) warnings.dropped('user', 'Converse has no end-user field.');
}

type ConverseTurn = { role: string; content: Record<string, unknown>[] };

/** Whether the last assistant turn, when it calls tools, begins with a reasoning block, as Claude requires. */
function toolLoopKeepsReasoning(messages: ConverseTurn[]): boolean {
  const last = messages.findLast((message) => message.role === 'assistant');
  if (!last || !last.content.some((block) => block.toolUse !== undefined)) return true;
  return last.content[0]?.reasoningContent !== undefined;
}

export function hubToConverseRequest(request: HubRequest, upstreamModel: string): { body: Record<string, unknown>; warnings: HubWarning[] } {
  const warnings = new Warnings();
  const claude: ClaudeConverseFields | null = isClaudeOnBedrock(upstreamModel) ? claudeConverseFields(request, warnings) : null;
  const folded = foldSystemMessages(request.system, request.messages, warnings, 'Bedrock Converse');
  const body: Record<string, unknown> = { messages: hubMessagesToConverse(folded.messages, warnings) };
  const system = folded.system.filter((part) => part.text !== '').map((part) => ({ text: part.text }));
  if (system.length > 0) body.system = system;
  const inference: Record<string, unknown> = {};
  setIfDefined(inference, 'maxTokens', claude ? claude.maxTokens : request.maxOutputTokens);
  setIfDefined(inference, 'temperature', claude ? claude.temperature : request.temperature);
  setIfDefined(inference, 'topP', claude ? claude.topP : request.topP);
  if (request.stopSequences.length > 0) inference.stopSequences = request.stopSequences;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;
  setIfDefined(body, 'toolConfig', toolConfigToConverse(request, warnings));
  if (request.metadata && Object.keys(request.metadata).length > 0) body.requestMetadata = request.metadata;
  if (claude?.additional.thinking && !toolLoopKeepsReasoning(body.messages as ConverseTurn[])) {
    // Claude refuses thinking when the turn that called the tools comes back without its reasoning block
    // (a client that dropped it, another provider's): this request goes without thinking rather than failing.
    delete claude.additional.thinking;
    warnings.dropped('thinking', 'the last assistant turn calls tools without its reasoning block; thinking was turned off for this request.');
  }
  if (claude && Object.keys(claude.additional).length > 0) body.additionalModelRequestFields = claude.additional;
  warnDropped(request, warnings, claude !== null);
  restoreExtensions(body, request, 'bedrock-converse');
  warnForeignExtensions(request, 'bedrock-converse', warnings);
  warnUnservedWebTools(request, warnings, 'Bedrock Converse');
  return { body, warnings: warnings.list };
}
