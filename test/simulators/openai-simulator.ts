// A simulator of OpenAI's API (and of any OpenAI-compatible server), answering in OpenAI's exact shapes.
// Replies are derived from the request so tests can assert exact content:
// - text: `Hello from the OpenAI simulator: you said "<last user text>"`;
// - when `tools` are offered and the last user text mentions "weather", a get_weather tool call per city
//   named after "in" ("weather in Paris and Tokyo" → two parallel calls);
// - after a tool result, `The tool said: <result content>`;
// - with `continue_final_message: true` (vLLM's prefill extension) and a trailing assistant message that is
//   a prefix of the answer to the user turn before it, the rest of that answer (a continuation).
import type { Simulator, SimulatorExchange } from './simulator-core.ts';
import { countWords, sendEventStream, sendJson, splitIntoPieces, startSimulator } from './simulator-core.ts';

export type OpenAISimulator = Simulator;

export interface OpenAISimulatorOptions {
  apiKey?: string;
  recordRequests?: boolean;
  /** Model ids served by GET /v1/models. */
  models?: string[];
}

interface ChatMessage { role: string; content?: unknown; tool_calls?: unknown[]; tool_call_id?: string }
interface ChatBody { model?: string; messages?: ChatMessage[]; stream?: boolean; stream_options?: { include_usage?: boolean }; tools?: unknown[]; n?: number; continue_final_message?: boolean }

export function startOpenAISimulator(options: OpenAISimulatorOptions = {}): Promise<OpenAISimulator> {
  const apiKey = options.apiKey ?? 'sk-sim-openai';
  return startSimulator({
    recordRequests: options.recordRequests,
    checkAuth: ({ request }) => request.headers.authorization === `Bearer ${apiKey}` ? null : {
      status: 401,
      body: { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
    },
    handle: (exchange) => {
      const { recorded, response } = exchange;
      if (recorded.method === 'POST' && recorded.path === '/v1/chat/completions') return chatCompletions(exchange);
      if (recorded.method === 'GET' && recorded.path === '/v1/models') {
        return sendJson(response, 200, { object: 'list', data: (options.models ?? ['gpt-4o-mini', 'gpt-4o']).map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'openai' })) });
      }
      return sendJson(response, 404, { error: { message: `Invalid URL (${recorded.method} ${recorded.path})`, type: 'invalid_request_error', param: null, code: null } });
    },
  });
}

function invalid(exchange: SimulatorExchange, message: string, param: string): void {
  sendJson(exchange.response, 400, { error: { message, type: 'invalid_request_error', param, code: null } });
}

interface PlannedAnswer {
  text: string | null;
  toolCalls: { id: string; name: string; arguments: string }[];
}

function planAnswer(body: ChatBody, scripted: string | undefined): PlannedAnswer {
  const messages = body.messages ?? [];
  const last = messages.at(-1);
  if (scripted !== undefined) return { text: scripted, toolCalls: [] };
  if (body.continue_final_message && last?.role === 'assistant') {
    const full = planAnswer({ ...body, continue_final_message: false, messages: messages.slice(0, -1) }, undefined).text ?? '';
    const prefill = textOf(last.content);
    return { text: full.startsWith(prefill) ? full.slice(prefill.length) : full, toolCalls: [] };
  }
  if (last?.role === 'tool') return { text: `The tool said: ${textOf(last.content)}`, toolCalls: [] };
  const said = textOf(last?.content);
  if (body.tools && body.tools.length > 0 && /weather/i.test(said)) {
    const cities = (/\bin\s+(.+)$/i.exec(said)?.[1] ?? 'Paris').split(/\s+and\s+|,\s*/).map((city) => city.replace(/[?.!]+$/, '').trim()).filter(Boolean);
    return { text: null, toolCalls: cities.map((city, i) => ({ id: `call_sim${i}${city.length}`, name: 'get_weather', arguments: JSON.stringify({ city }) })) };
  }
  return { text: `Hello from the OpenAI simulator: you said "${said}"`, toolCalls: [] };
}

function chatCompletions(exchange: SimulatorExchange): void | Promise<void> {
  const body = exchange.recorded.body as ChatBody;
  if (!body || typeof body !== 'object') return invalid(exchange, 'We could not parse the JSON body of your request.', '');
  if (typeof body.model !== 'string') return invalid(exchange, "Missing required parameter: 'model'.", 'model');
  if (!Array.isArray(body.messages) || body.messages.length === 0) return invalid(exchange, "Missing required parameter: 'messages'.", 'messages');
  const answer = planAnswer(body, exchange.step.reply);
  const promptTokens = body.messages.reduce((sum, message) => sum + 3 + countWords(textOf(message.content)), 3);
  const completionTokens = answer.text !== null ? countWords(answer.text) : answer.toolCalls.reduce((sum, call) => sum + countWords(call.arguments) + 3, 0);
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } };
  const id = `chatcmpl-sim${Date.now().toString(36)}`;
  const created = Math.floor(Date.now() / 1000);
  const finishReason = answer.toolCalls.length > 0 ? 'tool_calls' : 'stop';
  if (!body.stream) {
    const message = answer.toolCalls.length > 0
      ? { role: 'assistant', content: null, refusal: null, tool_calls: answer.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) }
      : { role: 'assistant', content: answer.text, refusal: null };
    return sendJson(exchange.response, 200, {
      id, object: 'chat.completion', created, model: body.model, system_fingerprint: 'fp_sim',
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
      ...(exchange.step.omitUsage ? {} : { usage }),
    }, exchange.step.headers);
  }
  const includeUsage = body.stream_options?.include_usage === true && !exchange.step.omitUsage;
  const chunk = (delta: object, finish: string | null) => `data: ${JSON.stringify({
    id, object: 'chat.completion.chunk', created, model: body.model, system_fingerprint: 'fp_sim',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  })}\n\n`;
  const events = [chunk({ role: 'assistant', content: answer.text === null ? null : '', refusal: null }, null)];
  if (answer.text !== null) {
    for (const piece of splitIntoPieces(answer.text)) events.push(chunk({ content: piece }, null));
  }
  answer.toolCalls.forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }, null));
    const half = Math.ceil(call.arguments.length / 2);
    for (const part of [call.arguments.slice(0, half), call.arguments.slice(half)]) {
      events.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }, null));
    }
  });
  events.push(chunk({}, finishReason));
  if (includeUsage) {
    events.push(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, system_fingerprint: 'fp_sim', choices: [], usage })}\n\n`);
  }
  return sendEventStream(exchange, events, 'data: [DONE]\n\n');
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((part) => (part && typeof part === 'object' && 'text' in part ? String((part as { text: unknown }).text) : '')).join(' ').trim();
  }
  return '';
}
