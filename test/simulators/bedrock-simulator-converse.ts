// POST /model/{modelId}/converse and /converse-stream of the Bedrock simulator (behaviour documented in
// bedrock-simulator.ts). Streams are binary AWS event streams written with @smithy's EventStreamCodec.
import type { ServerResponse } from 'node:http';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import type { ScriptStep, SimulatorExchange } from './simulator-core.ts';
import { sendJson, sleep } from './simulator-http.ts';
import { countWords, greeting, scriptedToolCall, shapeText, splitEvenly, splitIntoPieces, toolResultAnswer, weatherCities } from './simulator-answers.ts';
import { awsError } from './bedrock-simulator-auth.ts';
import { claudeFieldsProblem, reasoningBlock, thinks, type ClaudeBody, type ReasoningBlock } from './bedrock-simulator-claude.ts';

interface Block { reasoningContent?: ReasoningBlock['reasoningContent']; text?: string; toolUse?: { toolUseId: string; name: string; input: unknown }; toolResult?: { toolUseId?: string; content?: Block[]; status?: string }; image?: unknown; json?: unknown }
interface ConverseBody extends ClaudeBody {
  messages?: { role?: string; content?: Block[] }[];
  system?: { text?: string }[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; stopSequences?: string[] };
  toolConfig?: { tools?: { toolSpec?: { name?: string } }[] };
}

const codec = new EventStreamCodec(toUtf8, fromUtf8);

function eventMessage(type: string, payload: object): Uint8Array {
  return codec.encode({
    headers: { ':event-type': { type: 'string', value: type }, ':content-type': { type: 'string', value: 'application/json' }, ':message-type': { type: 'string', value: 'event' } },
    body: fromUtf8(JSON.stringify(payload)),
  });
}

function exceptionMessage(type: string, message: string): Uint8Array {
  return codec.encode({
    headers: { ':exception-type': { type: 'string', value: type }, ':content-type': { type: 'string', value: 'application/json' }, ':message-type': { type: 'string', value: 'exception' } },
    body: fromUtf8(JSON.stringify({ message })),
  });
}

const textOf = (blocks: Block[] | undefined) => (blocks ?? []).filter((block) => block.text !== undefined).map((block) => block.text).join(' ').trim();

function sendAwsError(response: ServerResponse, status: number, type: string, message: string): void {
  const answer = awsError(status, type, message);
  sendJson(response, answer.status, answer.body, answer.headers);
}

/** An exception message a ConverseStream ends with, after this many of its messages. */
export interface StreamException { type: string; message: string; afterMessages: number }

export async function converse(exchange: SimulatorExchange, modelId: string, stream: boolean, exception?: StreamException): Promise<void> {
  const { step, response } = exchange;
  const body = exchange.recorded.body as ConverseBody | undefined;
  if (!body || typeof body !== 'object' || !Array.isArray(body.messages) || body.messages.length === 0) {
    return sendAwsError(response, 400, 'ValidationException', 'The model returned the following errors: messages: field required');
  }
  const roles = body.messages.map((message) => message.role);
  if (roles.some((role, i) => i > 0 && role === roles[i - 1]) || roles[0] !== 'user') {
    return sendAwsError(response, 400, 'ValidationException', 'A conversation must start with a user message and alternate between user and assistant roles.');
  }
  const fieldsProblem = claudeFieldsProblem(modelId, body);
  if (fieldsProblem) return sendAwsError(response, 400, 'ValidationException', fieldsProblem);
  const last = body.messages.at(-1)!;
  const said = textOf(last.content);
  const results = (last.content ?? []).filter((block) => block.toolResult).map((block) => textOf(block.toolResult!.content));
  const tools = body.toolConfig?.tools ?? [];
  const scripted = step.reply === undefined ? scriptedToolCall(step.toolCall, tools.map((tool) => tool.toolSpec?.name ?? '')) : null;
  const cities = step.reply === undefined && scripted === null && results.length === 0 && tools.length > 0 ? weatherCities(said) : null;
  const content: Block[] = thinks(body) ? [reasoningBlock(said || results.join(' '))] : [];
  let stopReason = 'end_turn';
  if (scripted !== null && 'name' in scripted) {
    content.push({ toolUse: { toolUseId: `tooluse_simscript${modelId.length}${Date.now().toString(36)}`, name: scripted.name, input: scripted.arguments } });
    stopReason = 'tool_use';
  } else if (cities) {
    const name = tools[0]?.toolSpec?.name ?? 'get_weather';
    cities.forEach((city, i) => content.push({ toolUse: { toolUseId: `tooluse_sim${i}${city.toLowerCase().replace(/\W+/g, '')}`, name, input: { city } } }));
    stopReason = 'tool_use';
  } else {
    const shaped = shapeText(step.reply ?? scripted?.text ?? (results.length > 0 ? toolResultAnswer(results) : greeting('Bedrock', said)), body.inferenceConfig?.stopSequences, body.inferenceConfig?.maxTokens);
    if (shaped.stopSequence !== null) stopReason = 'stop_sequence';
    if (shaped.truncated) stopReason = 'max_tokens';
    content.push({ text: shaped.text });
  }
  const outputTokens = content.reduce((sum, block) => sum + countWords(block.text ?? block.reasoningContent?.reasoningText.text ?? JSON.stringify(block.toolUse?.input ?? {})), 0);
  const cached = step.cachedTokens ?? 0;
  const written = step.cacheWriteTokens ?? 0;
  const oneHour = step.cacheWrite1hTokens ?? 0;
  // Bedrock's inputTokens leaves out the tokens read from or written to the prompt cache.
  const inputTokens = Math.max(0, promptTokens(body) - cached - written);
  const usage = step.omitUsage ? undefined : {
    inputTokens, outputTokens, totalTokens: inputTokens + outputTokens + cached + written,
    ...(cached > 0 ? { cacheReadInputTokens: cached } : {}), ...(written > 0 ? { cacheWriteInputTokens: written } : {}),
    // Cache writes by lifetime, the longer first, as Bedrock sorts them.
    ...(written > 0 ? { cacheDetails: [{ ttl: '1h', inputTokens: oneHour }, { ttl: '5m', inputTokens: written - oneHour }].filter((detail) => detail.inputTokens > 0) } : {}),
  };
  const requestId = { 'x-amzn-requestid': `sim-${modelId.length}-${Date.now()}` };
  if (!stream) {
    return sendJson(response, 200, { output: { message: { role: 'assistant', content } }, stopReason, usage, metrics: { latencyMs: 12 } }, { ...requestId, ...step.headers });
  }
  const messages: Uint8Array[] = [eventMessage('messageStart', { role: 'assistant' })];
  content.forEach((block, contentBlockIndex) => {
    if (block.toolUse) {
      messages.push(eventMessage('contentBlockStart', { contentBlockIndex, start: { toolUse: { toolUseId: block.toolUse.toolUseId, name: block.toolUse.name } } }));
      for (const input of splitEvenly(JSON.stringify(block.toolUse.input), 3)) messages.push(eventMessage('contentBlockDelta', { contentBlockIndex, delta: { toolUse: { input } } }));
    } else if (block.reasoningContent) {
      const { text, signature } = block.reasoningContent.reasoningText;
      for (const piece of splitIntoPieces(text)) messages.push(eventMessage('contentBlockDelta', { contentBlockIndex, delta: { reasoningContent: { text: piece } } }));
      messages.push(eventMessage('contentBlockDelta', { contentBlockIndex, delta: { reasoningContent: { signature } } }));
    } else {
      for (const text of splitIntoPieces(block.text ?? '')) messages.push(eventMessage('contentBlockDelta', { contentBlockIndex, delta: { text } }));
    }
    messages.push(eventMessage('contentBlockStop', { contentBlockIndex }));
  });
  messages.push(eventMessage('messageStop', { stopReason }));
  if (!step.omitTerminator) messages.push(eventMessage('metadata', { ...(usage ? { usage } : {}), metrics: { latencyMs: 12 } }));
  if (exception) messages.splice(exception.afterMessages, messages.length, exceptionMessage(exception.type, exception.message));
  return sendBinaryStream(response, step, messages, requestId);
}

/** Writes the messages with the script's stream shaping (delays, cuts, stalls, a malformed message). */
async function sendBinaryStream(response: ServerResponse, step: Readonly<ScriptStep>, messages: Uint8Array[], headers: Record<string, string>): Promise<void> {
  response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', ...headers, ...step.headers });
  if (step.firstChunkDelayMs) await sleep(step.firstChunkDelayMs);
  for (let i = 0; i < messages.length; i++) {
    if (i > 0 && step.chunkDelayMs) await sleep(step.chunkDelayMs);
    if (response.destroyed) return;
    if (step.cutStreamAfterChunks !== undefined && i >= step.cutStreamAfterChunks) return void response.destroy();
    if (step.stallAfterChunks !== undefined && i >= step.stallAfterChunks) return;
    if (step.malformedChunkAt === i) response.write(eventMessageRaw('contentBlockDelta', '{"delta": not json'));
    response.write(messages[i]);
  }
  if (step.cutStreamAfterChunks !== undefined && step.cutStreamAfterChunks <= messages.length) return void response.destroy();
  if (step.stallAfterChunks !== undefined && step.stallAfterChunks <= messages.length) return;
  response.end();
}

function eventMessageRaw(type: string, payload: string): Uint8Array {
  return codec.encode({ headers: { ':event-type': { type: 'string', value: type }, ':message-type': { type: 'string', value: 'event' } }, body: fromUtf8(payload) });
}

function promptTokens(body: ConverseBody): number {
  let tokens = countWords((body.system ?? []).map((block) => block.text ?? '').join(' '));
  for (const message of body.messages ?? []) {
    for (const block of message.content ?? []) {
      if (block.text !== undefined) tokens += countWords(block.text);
      if (block.toolUse) tokens += countWords(JSON.stringify(block.toolUse.input ?? {}));
      if (block.toolResult) tokens += countWords(textOf(block.toolResult.content));
    }
  }
  return tokens;
}
