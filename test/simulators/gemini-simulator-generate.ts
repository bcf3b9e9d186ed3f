// generateContent, streamGenerateContent, countTokens and the embedding methods of the Gemini simulator
// (behaviour documented in gemini-simulator.ts).
import type { SimulatorExchange } from './simulator-core.ts';
import { sendEventStream, sendJson } from './simulator-http.ts';
import { announcement, asksForSearch, countWords, greeting, scriptedToolCall, shapeText, simulatedEmbedding, splitIntoPieces, thinkingSignature, thinkingText, toolResultAnswer, urlsIn, weatherCities, webFetchAnswer, webFetchFinding, webSearchFinding } from './simulator-answers.ts';
import { geminiError } from './gemini-simulator-errors.ts';

interface Part { text?: string; thought?: boolean; thoughtSignature?: string; thought_signature?: string; functionCall?: { name?: string; args?: unknown }; functionResponse?: { name?: string; response?: unknown } }
interface Content { role?: string; parts?: Part[] }
interface GenerateBody {
  contents?: Content[];
  systemInstruction?: Content;
  tools?: { functionDeclarations?: { name?: string }[]; googleSearch?: object; google_search?: object; urlContext?: object; url_context?: object }[];
  generationConfig?: GenerationConfig;
  /** Google's JSON mapping also takes the proto's snake_case names (generation_config, max_output_tokens, …). */
  generation_config?: SnakeGenerationConfig;
}

interface GenerationConfig { stopSequences?: string[]; maxOutputTokens?: number; candidateCount?: number; thinkingConfig?: { includeThoughts?: boolean } }
interface SnakeGenerationConfig { stop_sequences?: string[]; max_output_tokens?: number; candidate_count?: number; thinking_config?: { include_thoughts?: boolean } }

/** The generation config in either spelling, as the camelCase the rest of the simulator reads. */
function generationConfigOf(body: GenerateBody): GenerationConfig {
  if (body.generationConfig) return body.generationConfig;
  const snake = body.generation_config ?? {};
  return { stopSequences: snake.stop_sequences, maxOutputTokens: snake.max_output_tokens, candidateCount: snake.candidate_count, thinkingConfig: snake.thinking_config ? { includeThoughts: snake.thinking_config.include_thoughts } : undefined };
}

type AnswerPart = { text: string; thought?: true; thoughtSignature?: string } | { functionCall: { name: string; args: Record<string, unknown> } };

const SSE_FORMAT = { terminator: null, malformed: 'data: {"candidates": not json\r\n\r\n' };
const ARRAY_FORMAT = { terminator: ']', malformed: ',\r\n{"candidates": not json', contentType: 'application/json; charset=UTF-8' };

let sequence = 0;

function invalid(exchange: SimulatorExchange, message: string): void {
  sendJson(exchange.response, 400, geminiError(400, 'INVALID_ARGUMENT', message));
}

function validContents(exchange: SimulatorExchange): GenerateBody | null {
  const body = exchange.recorded.body as GenerateBody | undefined;
  if (!body || typeof body !== 'object') return invalid(exchange, 'Invalid JSON payload received.'), null;
  if (!Array.isArray(body.contents) || body.contents.length === 0) return invalid(exchange, '* GenerateContentRequest.contents: contents is not specified\n'), null;
  if (body.contents.some((content) => content.parts?.some((part) => !validThoughtSignature(part.thoughtSignature ?? part.thought_signature)))) {
    return invalid(exchange, 'Unable to submit request because Thought signature is not valid.'), null;
  }
  return body;
}

/** Gemini's documented value for a history it did not write, which skips the check. */
const SKIP_SIGNATURE_CHECK = 'skip_thought_signature_validator';

/** Like Google, a thought signature sent back must be one Gemini made (or the documented skip value). */
function validThoughtSignature(signature: string | undefined): boolean {
  if (signature === undefined || signature === SKIP_SIGNATURE_CHECK) return true;
  return Buffer.from(signature, 'base64').toString('utf8').startsWith('gemini-signature:');
}

export function countTokens(exchange: SimulatorExchange): void {
  const body = validContents(exchange);
  if (!body) return;
  const total = promptTokens(body);
  sendJson(exchange.response, 200, { totalTokens: total, promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }] });
}

export function generateContent(exchange: SimulatorExchange, model: string, stream: boolean): void | Promise<void> {
  const body = validContents(exchange);
  if (!body) return;
  const { step } = exchange;
  const contents = body.contents ?? [];
  const last = contents.at(-1);
  const fromUser = last?.role === undefined || last.role === 'user';
  const said = fromUser ? textOf(last?.parts) : '';
  const results = fromUser ? (last?.parts ?? []).filter((part) => part.functionResponse).map((part) => resultText(part.functionResponse?.response)) : [];
  const config = generationConfigOf(body);
  const candidateCount = config.candidateCount ?? 1;
  if (!Number.isInteger(candidateCount) || candidateCount < 1) return invalid(exchange, `* GenerateContentRequest.generation_config.candidate_count: must be a positive integer, got ${String(candidateCount)}.\n`);
  const parts: AnswerPart[] = [];
  let thoughts = 0;
  if (config.thinkingConfig?.includeThoughts) {
    const thought = thinkingText(said);
    // Signed as Gemini signs its thoughts (an opaque value to send back with the turn).
    parts.push({ text: thought, thought: true, thoughtSignature: geminiThoughtSignature(thought) });
    thoughts = countWords(thought);
  }
  const declared = body.tools?.flatMap((tool) => tool.functionDeclarations ?? []) ?? [];
  const scripted = step.reply === undefined ? scriptedToolCall(step.toolCall, declared.map((declaration) => declaration.name ?? '')) : null;
  const cities = step.reply === undefined && scripted === null && results.length === 0 && declared.length > 0 ? weatherCities(said) : null;
  let finishReason = 'STOP';
  let answerTokens = 0;
  const searching = step.reply === undefined && scripted === null && results.length === 0 && asksForSearch(said) && (body.tools ?? []).some((tool) => tool.googleSearch || tool.google_search);
  let groundingMetadata: Record<string, unknown> | undefined;
  const urls = step.reply === undefined && scripted === null && results.length === 0 && (body.tools ?? []).some((tool) => tool.urlContext || tool.url_context) ? urlsIn(said) : [];
  let urlContextMetadata: Record<string, unknown> | undefined;
  let toolUseTokens = 0;
  if (urls.length > 0) {
    // URL context: the pages read before answering; their text is tool-use prompt tokens, the answer says what they held.
    const found = urls.map(webFetchFinding);
    const answer = webFetchAnswer(found);
    parts.push({ text: answer });
    answerTokens = countWords(answer);
    toolUseTokens = found.reduce((sum, page) => sum + countWords(page.page), 0);
    urlContextMetadata = { urlMetadata: found.map((page) => ({ retrievedUrl: page.url, urlRetrievalStatus: page.reached ? 'URL_RETRIEVAL_STATUS_SUCCESS' : 'URL_RETRIEVAL_STATUS_ERROR' })) };
  } else if (searching) {
    // Search grounding: the answer, and what Google searched and used (segment offsets in UTF-8 bytes).
    const found = webSearchFinding(said);
    parts.push({ text: found.answer });
    answerTokens = countWords(found.answer);
    groundingMetadata = {
      webSearchQueries: [found.query],
      searchEntryPoint: { renderedContent: '<div class="sim-search-entry"></div>' },
      groundingChunks: [{ web: { uri: found.url, title: found.title, domain: 'example.org' } }],
      groundingSupports: [{ segment: { startIndex: 0, endIndex: Buffer.byteLength(found.answer), text: found.answer }, groundingChunkIndices: [0], confidenceScores: [0.9] }],
    };
  } else if (scripted !== null && 'name' in scripted) {
    parts.push({ functionCall: { name: scripted.name, args: scripted.arguments } });
    answerTokens += countWords(JSON.stringify(scripted.arguments));
  } else if (cities) {
    const name = declared[0]?.name ?? 'get_weather';
    const preface = announcement(said);
    if (preface !== null) {
      parts.push({ text: preface });
      answerTokens += countWords(preface);
    }
    for (const city of cities) {
      parts.push({ functionCall: { name, args: { city } } });
      answerTokens += countWords(JSON.stringify({ city }));
    }
  } else {
    const shaped = shapeText(step.reply ?? scripted?.text ?? (results.length > 0 ? toolResultAnswer(results) : greeting('Gemini', said)), config.stopSequences, config.maxOutputTokens);
    if (shaped.truncated) finishReason = 'MAX_TOKENS';
    parts.push({ text: shaped.text });
    answerTokens = countWords(shaped.text);
  }
  // Every candidate is the same answer (the simulator is deterministic), each cut by maxOutputTokens on its
  // own; the counts are over all of them, as Google bills them.
  answerTokens *= candidateCount;
  thoughts *= candidateCount;
  const prompt = promptTokens(body);
  const usage = step.omitUsage ? undefined : {
    promptTokenCount: prompt, candidatesTokenCount: answerTokens, totalTokenCount: prompt + answerTokens + thoughts + toolUseTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }], ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
    ...(toolUseTokens > 0 ? { toolUsePromptTokenCount: toolUseTokens, toolUsePromptTokensDetails: [{ modality: 'TEXT', tokenCount: toolUseTokens }] } : {}),
    ...(step.cachedTokens ? { cachedContentTokenCount: step.cachedTokens } : {}),
  };
  const responseId = `sim${(++sequence).toString(36).padStart(8, '0')}`;
  const modelVersion = model;
  const indexes = Array.from({ length: candidateCount }, (_, index) => index);
  if (!stream) {
    return sendJson(exchange.response, 200, {
      candidates: indexes.map((index) => ({ content: { parts, role: 'model' }, finishReason, index, ...(groundingMetadata ? { groundingMetadata } : {}), ...(urlContextMetadata ? { urlContextMetadata } : {}) })), usageMetadata: usage, modelVersion, responseId,
    }, step.headers);
  }
  // Chunks: the thought, then the text a word at a time (function calls together in one chunk); the last
  // chunk carries finishReason and the full usage, the others the prompt count only, as Google does. With
  // several candidates each chunk carries every candidate's next piece, named by its index.
  const pieces: Part[][] = [];
  for (const part of parts) {
    if ('functionCall' in part) {
      const previous = pieces.at(-1);
      if (previous?.[0]?.functionCall) previous.push(part);
      else pieces.push([part]);
    } else if (part.thought) {
      pieces.push([part]);
    } else {
      for (const piece of splitIntoPieces(part.text)) pieces.push([{ text: piece }]);
    }
  }
  const partialUsage = usage ? { promptTokenCount: prompt, totalTokenCount: prompt, promptTokensDetails: usage.promptTokensDetails } : undefined;
  const chunks = pieces.map((chunkParts, i) => JSON.stringify({
    candidates: indexes.map((index) => ({
      content: { parts: chunkParts, role: 'model' }, ...(i === pieces.length - 1 ? { finishReason, ...(groundingMetadata ? { groundingMetadata } : {}) } : {}),
      ...(i === 0 && urlContextMetadata ? { urlContextMetadata } : {}), index,
    })),
    usageMetadata: i === pieces.length - 1 ? usage : partialUsage, modelVersion, responseId,
  }));
  if (step.omitTerminator) chunks.pop(); // no chunk with finishReason
  if (exchange.recorded.query.get('alt') === 'sse') {
    return sendEventStream(exchange.response, step, chunks.map((chunk) => `data: ${chunk}\r\n\r\n`), SSE_FORMAT);
  }
  return sendEventStream(exchange.response, step, chunks.map((chunk, i) => (i === 0 ? `[${chunk}` : `,\r\n${chunk}`)), ARRAY_FORMAT);
}

interface EmbedRequest { model?: string; content?: Content; outputDimensionality?: number }

function embedding(request: EmbedRequest, model: string): { values: number[] } {
  const dimensions = request.outputDimensionality ?? (model === 'gemini-embedding-001' ? 3072 : 768);
  return { values: simulatedEmbedding(textOf(request.content?.parts), dimensions) };
}

export function embedContent(exchange: SimulatorExchange, model: string): void {
  const body = exchange.recorded.body as EmbedRequest | undefined;
  if (!body?.content?.parts) return invalid(exchange, '* EmbedContentRequest.content: contents is not specified\n');
  sendJson(exchange.response, 200, { embedding: embedding(body, model) }, exchange.step.headers);
}

export function batchEmbedContents(exchange: SimulatorExchange, model: string): void {
  const body = exchange.recorded.body as { requests?: EmbedRequest[] } | undefined;
  if (!Array.isArray(body?.requests) || body.requests.length === 0) return invalid(exchange, '* BatchEmbedContentsRequest.requests: requests is not specified\n');
  for (const [i, request] of body.requests.entries()) {
    if (request.model !== undefined && request.model !== `models/${model}`) {
      return invalid(exchange, `Model name in request ${i} (${request.model}) does not match the model in the URL (models/${model}).`);
    }
    if (!request.content?.parts) return invalid(exchange, `* BatchEmbedContentsRequest.requests[${i}].content: contents is not specified\n`);
  }
  sendJson(exchange.response, 200, { embeddings: body.requests.map((request) => embedding(request, model)) }, exchange.step.headers);
}

function promptTokens(body: GenerateBody): number {
  let tokens = countWords(textOf(body.systemInstruction?.parts));
  for (const content of body.contents ?? []) {
    for (const part of content.parts ?? []) {
      if (typeof part.text === 'string') tokens += countWords(part.text);
      if (part.functionCall) tokens += countWords(JSON.stringify(part.functionCall.args ?? {}));
      if (part.functionResponse) tokens += countWords(JSON.stringify(part.functionResponse.response ?? {}));
    }
  }
  return tokens;
}

/** The text parts (not thoughts) joined by spaces. */
function textOf(parts: Part[] | undefined): string {
  if (!parts) return '';
  return parts.filter((part) => typeof part.text === 'string' && !part.thought).map((part) => part.text).join(' ').trim();
}

function resultText(response: unknown): string {
  if (response && typeof response === 'object') {
    for (const key of ['result', 'output', 'content']) {
      const value = (response as Record<string, unknown>)[key];
      if (typeof value === 'string') return value;
    }
  }
  return JSON.stringify(response ?? {});
}

/** The simulator's thought signature: base64 of `gemini-signature:<hash>`, so a test can tell it from Anthropic's. */
export function geminiThoughtSignature(thought: string): string {
  return Buffer.from(`gemini-signature:${thinkingSignature(thought)}`).toString('base64');
}
