// A simulator of Anthropic's Messages API, answering in Anthropic's exact shapes:
//   POST /v1/messages               (anthropic-simulator-messages.ts) stream and not, tool use, thinking
//   POST /v1/messages/count_tokens  {input_tokens}
//   GET  /v1/models, GET /v1/models/{id}   (limit, after_id, before_id paging)
// Auth: `x-api-key: <apiKey>` or `Authorization: Bearer <apiKey>`, else 401 authentication_error; an
// `anthropic-version` header is required (400 invalid_request_error otherwise).
// Replies (simulator-answers.ts): `Hello from the Anthropic simulator: you said "<last user text>"`; tool_use
// blocks (stop_reason tool_use) when `tools` are offered and the last user text mentions "weather" (one per
// city: "weather in Paris and Tokyo" → two); after tool_result blocks `The tool said: <results joined by "; ">`;
// with `thinking: {type: 'enabled' | 'adaptive'}` a thinking block `Thinking about "<last user text>".` with a
// signature comes first. `stop_sequences` cut the text (stop_reason stop_sequence, stop_sequence set) and
// `max_tokens` cuts it to that many words (stop_reason max_tokens).
// With a web_search_* server tool offered and "search" in the last user text, the hosted search: a
// server_tool_use block (input {query}), its web_search_tool_result (one page, webSearchFinding), and a
// text block citing the page (streamed: citations_delta before the text); usage.server_tool_use counts
// web_search_requests: 1.
// Usage: input_tokens = words of the system prompt and of every message (text, tool inputs, tool results);
// output_tokens = words of thinking + text + tool inputs; cache counters 0.
import { bearerToken, headerValue, startSimulator, type Simulator } from './simulator-core.ts';
import { sendJson } from './simulator-http.ts';
import { anthropicError, anthropicErrorForStatus } from './anthropic-simulator-errors.ts';
import { countMessageTokens, messages } from './anthropic-simulator-messages.ts';

export type AnthropicSimulator = Simulator;
export { anthropicError } from './anthropic-simulator-errors.ts';

interface AnthropicSimulatorOptions {
  /** The accepted key; default 'sk-ant-sim'. */
  apiKey?: string;
  /** Record every request in `sim.requests` (default true; false for benchmarks). */
  recordRequests?: boolean;
  /** Model ids served by GET /v1/models. */
  models?: string[];
}

const DEFAULT_ANTHROPIC_MODELS = ['claude-sonnet-4-6', 'claude-opus-4-6', 'claude-haiku-4-5-20251001'];

export function startAnthropicSimulator(options: AnthropicSimulatorOptions = {}): Promise<AnthropicSimulator> {
  const apiKey = options.apiKey ?? 'sk-ant-sim';
  const models = (options.models ?? DEFAULT_ANTHROPIC_MODELS).map((id, i) => ({
    type: 'model', id, display_name: displayName(id), created_at: new Date(Date.UTC(2025, 9, 1 - i)).toISOString(),
    capabilities: null, deprecated_at: null, lifecycle: 'active', line: null, max_input_tokens: 200_000, max_tokens: 64_000, retires_at: null,
  }));
  return startSimulator({
    recordRequests: options.recordRequests,
    errorBody: anthropicErrorForStatus,
    checkAuth: ({ request }) => {
      const key = headerValue(request, 'x-api-key') ?? bearerToken(request);
      if (key !== apiKey) {
        return { status: 401, body: anthropicError('authentication_error', key === undefined ? 'x-api-key header is required' : 'invalid x-api-key') };
      }
      if (headerValue(request, 'anthropic-version') === undefined) {
        return { status: 400, body: anthropicError('invalid_request_error', 'anthropic-version: header is required') };
      }
      return null;
    },
    handle: (exchange) => {
      const { recorded, response } = exchange;
      const { method, path } = recorded;
      if (method === 'POST' && path === '/v1/messages') return messages(exchange);
      if (method === 'POST' && path === '/v1/messages/count_tokens') return countMessageTokens(exchange);
      if (method === 'GET' && path === '/v1/models') {
        const limit = Math.min(Math.max(Number(recorded.query.get('limit') ?? 20) || 20, 1), 1000);
        const afterId = recorded.query.get('after_id');
        const beforeId = recorded.query.get('before_id');
        let start = 0;
        let end = models.length;
        if (afterId !== null) start = models.findIndex((model) => model.id === afterId) + 1;
        if (beforeId !== null) end = Math.max(models.findIndex((model) => model.id === beforeId), 0);
        if (beforeId !== null && afterId === null) start = Math.max(end - limit, 0);
        const page = models.slice(start, Math.min(end, start + limit));
        return sendJson(response, 200, {
          data: page, has_more: beforeId !== null && afterId === null ? start > 0 : start + page.length < end,
          first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null,
        });
      }
      if (method === 'GET' && path.startsWith('/v1/models/')) {
        const id = decodeURIComponent(path.slice('/v1/models/'.length));
        const model = models.find((candidate) => candidate.id === id);
        if (model) return sendJson(response, 200, model);
        return sendJson(response, 404, anthropicError('not_found_error', `model: ${id}`));
      }
      return sendJson(response, 404, anthropicError('not_found_error', 'Not Found'));
    },
  });
}

function displayName(id: string): string {
  const words = id.replace(/-\d{8}$/, '').split('-');
  return words.map((word) => (word === 'claude' ? 'Claude' : /^\d/.test(word) ? word : word[0]!.toUpperCase() + word.slice(1)))
    .join(' ').replace(/(\d) (\d)/g, '$1.$2');
}
