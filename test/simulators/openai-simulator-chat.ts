// POST /v1/chat/completions of the OpenAI simulator (behaviour documented in openai-simulator.ts).
import type { SimulatorExchange } from './simulator-core.ts';
import { sendEventStream, sendJson } from './simulator-http.ts';
import { countWords, greeting, scriptedToolCall, shapeText, splitEvenly, splitIntoPieces, stopList, toolResultAnswer, weatherCities } from './simulator-answers.ts';
import { sendOpenAIInvalid } from './openai-simulator-errors.ts';
import type { ScriptStep } from './simulator-script.ts';

interface ChatMessage { role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }
interface ChatTool { type?: string; function?: { name?: string } }
interface ChatBody {
  model?: unknown;
  messages?: ChatMessage[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  tools?: ChatTool[];
  stop?: string | string[] | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  n?: number | null;
  continue_final_message?: boolean;
}

interface ToolCall { id: string; name: string; arguments: string }
interface PlannedAnswer { text: string | null; toolCalls: ToolCall[] }

export const OPENAI_STREAM_FORMAT = { terminator: 'data: [DONE]\n\n', malformed: 'data: {"this is": not json\n\n' };

let sequence = 0;

export function chatCompletions(exchange: SimulatorExchange): void | Promise<void> {
  const body = exchange.recorded.body as ChatBody | undefined;
  if (!body || typeof body !== 'object') return sendOpenAIInvalid(exchange, 'We could not parse the JSON body of your request.', null);
  if (typeof body.model !== 'string') return sendOpenAIInvalid(exchange, "Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  if (!Array.isArray(body.messages)) return sendOpenAIInvalid(exchange, "Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (body.messages.length === 0) return sendOpenAIInvalid(exchange, "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", 'messages', 'empty_array');
  const choiceCount = body.n ?? 1;
  if (!Number.isInteger(choiceCount)) return sendOpenAIInvalid(exchange, `Invalid type for 'n': expected an integer, but got ${typeof choiceCount === 'number' ? 'a decimal number' : typeof choiceCount} instead.`, 'n', 'invalid_type');
  if (choiceCount < 1) return sendOpenAIInvalid(exchange, `Invalid 'n': integer below minimum value. Expected a value >= 1, but got ${choiceCount} instead.`, 'n', 'integer_below_min_value');
  if (choiceCount > 128) return sendOpenAIInvalid(exchange, `Invalid 'n': integer above maximum value. Expected a value <= 128, but got ${choiceCount} instead.`, 'n', 'integer_above_max_value');
  const { step } = exchange;
  const answer = planAnswer(body, step);
  let finishReason = answer.toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (answer.text !== null) {
    const shaped = shapeText(answer.text, stopList(body.stop), body.max_completion_tokens ?? body.max_tokens ?? undefined);
    answer.text = shaped.text;
    if (shaped.truncated) finishReason = 'length';
  }
  let promptTokens = 3;
  for (const message of body.messages) promptTokens += 3 + countWords(textOf(message.content));
  // Every choice is the same answer (the simulator is deterministic), each cut by the limit on its own; the
  // completion count is over all of them, as OpenAI bills it.
  let choiceTokens = 0;
  if (answer.text !== null) choiceTokens = countWords(answer.text);
  for (const call of answer.toolCalls) choiceTokens += countWords(call.arguments) + 3;
  const completionTokens = choiceTokens * choiceCount;
  const indexes = Array.from({ length: choiceCount }, (_, index) => index);
  const usage = step.omitUsage ? undefined : {
    prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: step.cachedTokens ?? 0, audio_tokens: 0, ...(step.cacheWriteTokens ? { cache_write_tokens: step.cacheWriteTokens } : {}) },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
  const id = `chatcmpl-sim${(++sequence).toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const model = body.model;
  if (!body.stream) {
    const message = answer.toolCalls.length > 0
      ? { role: 'assistant', content: null, refusal: null, annotations: [], tool_calls: answer.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) }
      : { role: 'assistant', content: answer.text, refusal: null, annotations: [] };
    return sendJson(exchange.response, 200, {
      id, object: 'chat.completion', created, model,
      choices: indexes.map((index) => ({ index, message, logprobs: null, finish_reason: finishReason })),
      usage, service_tier: 'default', system_fingerprint: 'fp_sim',
    }, step.headers);
  }
  const includeUsage = body.stream_options?.include_usage === true && usage !== undefined;
  // One choice per chunk, named by its index; with several choices their chunks take turns, as OpenAI's do.
  const chunk = (choice: number, delta: object, finish: string | null) => `data: ${JSON.stringify({
    id, object: 'chat.completion.chunk', created, model, service_tier: 'default', system_fingerprint: 'fp_sim',
    choices: [{ index: choice, delta, logprobs: null, finish_reason: finish }],
    usage: includeUsage ? null : undefined,
  })}\n\n`;
  const deltas: object[] = [{ role: 'assistant', content: answer.text === null ? null : '', refusal: null }];
  if (answer.text !== null && answer.text !== '') {
    for (const piece of splitIntoPieces(answer.text)) deltas.push({ content: piece });
  }
  answer.toolCalls.forEach((call, index) => {
    deltas.push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
    for (const part of splitEvenly(call.arguments, 3)) deltas.push({ tool_calls: [{ index, function: { arguments: part } }] });
  });
  const events: string[] = [];
  for (const delta of deltas) for (const choice of indexes) events.push(chunk(choice, delta, null));
  for (const choice of indexes) events.push(chunk(choice, {}, finishReason));
  if (includeUsage) {
    events.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, service_tier: 'default', system_fingerprint: 'fp_sim', choices: [], usage })}\n\n`);
  }
  return sendEventStream(exchange.response, step, events, OPENAI_STREAM_FORMAT);
}

function planAnswer(body: ChatBody, step: Readonly<ScriptStep>): PlannedAnswer {
  const messages = body.messages ?? [];
  const last = messages.at(-1);
  if (step.reply !== undefined) return { text: step.reply, toolCalls: [] };
  const scripted = scriptedToolCall(step.toolCall, (body.tools ?? []).map((tool) => tool.function?.name ?? ''));
  if (scripted !== null) {
    if ('text' in scripted) return { text: scripted.text, toolCalls: [] };
    return { text: null, toolCalls: [{ id: `call_sim_script${(sequence + 1).toString(36)}`, name: scripted.name, arguments: JSON.stringify(scripted.arguments) }] };
  }
  if (body.continue_final_message && last?.role === 'assistant') {
    const full = planAnswer({ ...body, continue_final_message: false, messages: messages.slice(0, -1) }, {}).text ?? '';
    const prefill = textOf(last.content);
    return { text: full.startsWith(prefill) ? full.slice(prefill.length) : full, toolCalls: [] };
  }
  if (last?.role === 'tool') {
    let first = messages.length - 1;
    while (first > 0 && messages[first - 1]?.role === 'tool') first--;
    return { text: toolResultAnswer(messages.slice(first).map((message) => textOf(message.content))), toolCalls: [] };
  }
  const said = textOf(last?.content);
  const cities = body.tools && body.tools.length > 0 && last?.role === 'user' ? weatherCities(said) : null;
  if (cities) {
    const name = body.tools?.[0]?.function?.name ?? 'get_weather';
    return {
      text: null,
      toolCalls: cities.map((city, i) => ({ id: `call_sim_${i}_${city.toLowerCase().replace(/\W+/g, '')}`, name, arguments: JSON.stringify({ city }) })),
    };
  }
  return { text: greeting('OpenAI', said), toolCalls: [] };
}

/** The text of a message content: a string, or the text parts of a list joined by spaces. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String((part as { text: unknown }).text) : '')).join(' ').trim();
  }
  return '';
}
