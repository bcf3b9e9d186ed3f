// POST /v1/completions and POST /v1/embeddings of the OpenAI simulator.
// Completions: one choice per prompt (a string or a list of strings), text = greeting for that prompt, cut by
// `stop` and `max_tokens` (OpenAI's default for this endpoint is 16, and so it is here).
// Embeddings: simulatedEmbedding(input, dimensions) per input (simulator-answers.ts), 1536 dimensions by
// default (3072 for text-embedding-3-large), `dimensions` honoured (refused by text-embedding-ada-002 as
// OpenAI does), `encoding_format: "base64"` as little-endian float32; usage.prompt_tokens = words.
import type { SimulatorExchange } from './simulator-core.ts';
import { sendEventStream, sendJson } from './simulator-http.ts';
import { countWords, float32Base64, greeting, shapeText, simulatedEmbedding, splitIntoPieces, stopList } from './simulator-answers.ts';
import { sendOpenAIInvalid } from './openai-simulator-errors.ts';
import { OPENAI_STREAM_FORMAT } from './openai-simulator-chat.ts';

interface CompletionBody {
  model?: unknown;
  prompt?: unknown;
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  stop?: string | string[] | null;
  max_tokens?: number | null;
}

let sequence = 0;

/** A prompt or an input as a list of texts (token arrays become their numbers joined by spaces). */
function textsOf(value: unknown): string[] | null {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value) || value.length === 0) return null;
  if (value.every((item) => typeof item === 'number')) return [value.join(' ')];
  const texts: string[] = [];
  for (const item of value) {
    if (typeof item === 'string') texts.push(item);
    else if (Array.isArray(item)) texts.push(item.join(' '));
    else return null;
  }
  return texts;
}

export function completions(exchange: SimulatorExchange): void | Promise<void> {
  const body = exchange.recorded.body as CompletionBody | undefined;
  if (!body || typeof body !== 'object') return sendOpenAIInvalid(exchange, 'We could not parse the JSON body of your request.', null);
  if (typeof body.model !== 'string') return sendOpenAIInvalid(exchange, "Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  const prompts = textsOf(body.prompt);
  if (!prompts) return sendOpenAIInvalid(exchange, "Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter');
  const { step } = exchange;
  const choices = prompts.map((prompt, index) => {
    const shaped = shapeText(step.reply ?? greeting('OpenAI', prompt), stopList(body.stop), body.max_tokens ?? 16);
    return { index, text: shaped.text, finish_reason: shaped.truncated ? 'length' : 'stop' };
  });
  const promptTokens = prompts.reduce((sum, prompt) => sum + countWords(prompt), 0);
  const completionTokens = choices.reduce((sum, choice) => sum + countWords(choice.text), 0);
  const usage = step.omitUsage ? undefined : { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
  const id = `cmpl-sim${(++sequence).toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model;
  if (!body.stream) {
    return sendJson(exchange.response, 200, {
      id, object: 'text_completion', created, model, system_fingerprint: 'fp_sim',
      choices: choices.map((choice) => ({ text: choice.text, index: choice.index, logprobs: null, finish_reason: choice.finish_reason })),
      usage,
    }, step.headers);
  }
  const includeUsage = body.stream_options?.include_usage === true && usage !== undefined;
  const chunk = (index: number, text: string, finish: string | null) => `data: ${JSON.stringify({
    id, object: 'text_completion', created, model, system_fingerprint: 'fp_sim',
    choices: [{ text, index, logprobs: null, finish_reason: finish }],
    usage: includeUsage ? null : undefined,
  })}\n\n`;
  const events: string[] = [];
  for (const choice of choices) {
    for (const piece of splitIntoPieces(choice.text)) events.push(chunk(choice.index, piece, null));
    events.push(chunk(choice.index, '', choice.finish_reason));
  }
  if (includeUsage) events.push(`data: ${JSON.stringify({ id, object: 'text_completion', created, model, system_fingerprint: 'fp_sim', choices: [], usage })}\n\n`);
  return sendEventStream(exchange.response, step, events, OPENAI_STREAM_FORMAT);
}

interface EmbeddingBody { model?: unknown; input?: unknown; dimensions?: number; encoding_format?: string }

export function embeddings(exchange: SimulatorExchange): void {
  const body = exchange.recorded.body as EmbeddingBody | undefined;
  if (!body || typeof body !== 'object') return sendOpenAIInvalid(exchange, 'We could not parse the JSON body of your request.', null);
  if (typeof body.model !== 'string') return sendOpenAIInvalid(exchange, "Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  const inputs = textsOf(body.input);
  if (!inputs) return sendOpenAIInvalid(exchange, "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", null);
  const encoding = body.encoding_format ?? 'float';
  if (encoding !== 'float' && encoding !== 'base64') {
    return sendOpenAIInvalid(exchange, `Invalid value for 'encoding_format': '${encoding}'. Supported values are: 'float' and 'base64'.`, 'encoding_format', 'invalid_value');
  }
  let dimensions = body.model === 'text-embedding-3-large' ? 3072 : 1536;
  if (body.dimensions !== undefined) {
    if (body.model === 'text-embedding-ada-002') return sendOpenAIInvalid(exchange, 'This model does not support specifying dimensions.', null);
    if (!Number.isInteger(body.dimensions) || body.dimensions < 1) {
      return sendOpenAIInvalid(exchange, `Invalid value for 'dimensions' = ${body.dimensions}. Must be a positive integer.`, 'dimensions');
    }
    dimensions = body.dimensions;
  }
  const data = inputs.map((input, index) => {
    const vector = simulatedEmbedding(input, dimensions);
    return { object: 'embedding', index, embedding: encoding === 'base64' ? float32Base64(vector) : vector };
  });
  const tokens = inputs.reduce((sum, input) => sum + countWords(input), 0);
  sendJson(exchange.response, 200, {
    object: 'list', data, model: body.model,
    ...(exchange.step.omitUsage ? {} : { usage: { prompt_tokens: tokens, total_tokens: tokens } }),
  }, exchange.step.headers);
}
