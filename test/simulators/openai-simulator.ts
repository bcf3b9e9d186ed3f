// A simulator of OpenAI's API (and of any OpenAI-compatible server), answering in OpenAI's exact shapes:
//   POST /v1/chat/completions   (openai-simulator-chat.ts)   stream and not, tool calls, usage
//   POST /v1/completions        (openai-simulator-legacy.ts) text_completion, stream and not
//   POST /v1/embeddings         (openai-simulator-legacy.ts) float or base64, `dimensions`
//   POST /v1/images/generations, /v1/audio/speech (openai-simulator-endpoints.ts)
//   POST /v1/responses          (openai-simulator-responses.ts) every Response field, function calls, stream events
//   GET /v1/responses + Upgrade (openai-simulator-websocket.ts) the Responses WebSocket mode, with counters and faults
//   GET/DELETE /v1/responses/{id}, GET /v1/responses/{id}/input_items, POST /v1/responses/{id}/cancel
//   GET  /v1/models, GET /v1/models/{id}
//   GET  /v1/dashboard/billing/subscription, /v1/dashboard/billing/usage, /dashboard/billing/credit_grants
//        (the billing API of OpenAI-compatible resellers such as new-api and one-api; only with `billing`)
// `responsesOnlyModels` answer chat completions with OpenAI's 404 "only supported in v1/responses".
// Auth: `Authorization: Bearer <apiKey>`; anything else gets OpenAI's 401 invalid_api_key.
// Replies (simulator-answers.ts): `Hello from the OpenAI simulator: you said "<last user text>"`; tool calls
// when `tools` are offered and the last user text mentions "weather" (one per city: "weather in Paris and
// Tokyo" → two parallel calls); after tool messages `The tool said: <contents joined by "; ">`; with
// `continue_final_message: true` (vLLM's prefill extension) and a trailing assistant message that is a
// prefix of the answer to the turn before it, the rest of that answer. `stop` and `max_tokens` /
// `max_completion_tokens` cut the text (finish_reason stop / length). `n` (1 to 128) answers that many
// choices, index 0 to n-1, each the same answer cut by the limit on its own; streamed, each chunk carries
// one choice and the choices' chunks take turns.
// Usage: prompt_tokens = 3 + Σ(3 + words of each message); completion_tokens = words of the reply (tool
// calls: words of the arguments + 3 each), summed over the choices.
import { bearerToken, startSimulator, type Simulator, type SimulatorExchange } from './simulator-core.ts';
import { sendJson } from './simulator-http.ts';
import { openAIError, openAIErrorForStatus } from './openai-simulator-errors.ts';
import { chatCompletions } from './openai-simulator-chat.ts';
import { completions, embeddings } from './openai-simulator-legacy.ts';
import { imagesEdits, imagesGenerations, speech, storedResponse, transcriptions } from './openai-simulator-endpoints.ts';
import { responses } from './openai-simulator-responses.ts';
import { newWebSocketControl, responsesWebSocket, type ResponsesWebSocketControl } from './openai-simulator-websocket.ts';

export type OpenAISimulator = Simulator & {
  /** The Responses WebSocket mode's counters and faults (openai-simulator-websocket.ts). */
  webSocket: ResponsesWebSocketControl;
};

interface OpenAISimulatorOptions {
  /** The accepted key; default 'sk-sim-openai'. */
  apiKey?: string;
  /** Record every request in `sim.requests` (default true; false for benchmarks). */
  recordRequests?: boolean;
  /** Model ids served by GET /v1/models. */
  models?: string[];
  /** Models that answer only on /v1/responses: chat completions for them get OpenAI's 404 (o1-pro, codex models). */
  responsesOnlyModels?: string[];
  /** Serve h2c (HTTP/2 with prior knowledge, no TLS) instead of HTTP/1.1; `requests[i].httpVersion` is '2.0'. */
  http2?: boolean;
  /** Serve https with a self-signed certificate; with `http2`, h2 and http/1.1 offered by ALPN. */
  tls?: boolean;
  /**
   * Answer the billing API as new-api and one-api do: `subscription` serves hard_limit_usd and the usage
   * (total_usage, in cents, whatever the dates asked); `credit_grants` serves only the credit summary. Absent:
   * 404, as OpenAI itself answers API keys today.
   */
  billing?: { kind: 'subscription'; hardLimitUsd: number; usedUsd: number } | { kind: 'credit_grants'; grantedUsd: number; usedUsd: number };
}

const DEFAULT_OPENAI_MODELS = ['gpt-4o-mini', 'gpt-4o', 'gpt-3.5-turbo-instruct', 'text-embedding-3-small', 'text-embedding-3-large'];

export async function startOpenAISimulator(options: OpenAISimulatorOptions = {}): Promise<OpenAISimulator> {
  const apiKey = options.apiKey ?? 'sk-sim-openai';
  const webSocket = newWebSocketControl();
  let origin = '';
  const models = (options.models ?? DEFAULT_OPENAI_MODELS).map((id) => ({ id, object: 'model', created: 1_700_000_000, owned_by: 'openai' }));
  const modelList = { object: 'list', data: models };
  const simulator = await startSimulator({
    recordRequests: options.recordRequests,
    upgrade: responsesWebSocket(webSocket, apiKey, () => origin),
    http2: options.http2,
    tls: options.tls,
    errorBody: openAIErrorForStatus,
    checkAuth: ({ request }) => {
      const key = bearerToken(request);
      if (key === apiKey) return null;
      const message = key === undefined
        ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username."
        : `Incorrect API key provided: ${redact(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`;
      return { status: 401, body: openAIError(message, 'invalid_request_error', null, key === undefined ? null : 'invalid_api_key') };
    },
    handle: (exchange) => {
      const { recorded, response } = exchange;
      const { method, path } = recorded;
      if (method === 'POST' && path === '/v1/chat/completions') {
        const model = (recorded.body as { model?: unknown } | undefined)?.model;
        if (typeof model === 'string' && options.responsesOnlyModels?.includes(model)) {
          return sendJson(response, 404, openAIError('This model is only supported in v1/responses and not in v1/chat/completions.', 'invalid_request_error', 'model', null));
        }
        return chatCompletions(exchange);
      }
      if (method === 'POST' && path === '/v1/completions') return completions(exchange);
      if (method === 'POST' && path === '/v1/embeddings') return embeddings(exchange);
      if (method === 'POST' && path === '/v1/images/generations') return imagesGenerations(exchange);
      if (method === 'POST' && path === '/v1/audio/speech') return speech(exchange);
      if (method === 'POST' && path === '/v1/responses') return responses(exchange);
      if (path.startsWith('/v1/responses/')) return storedResponse(exchange);
      if (method === 'POST' && path === '/v1/images/edits') return imagesEdits(exchange);
      if (method === 'POST' && path === '/v1/audio/transcriptions') return transcriptions(exchange);
      if (method === 'GET' && path === '/v1/models') return sendJson(response, 200, modelList);
      const billing = options.billing;
      if (method === 'GET' && billing?.kind === 'subscription' && path === '/v1/dashboard/billing/subscription') {
        return sendJson(response, 200, { object: 'billing_subscription', has_payment_method: true, soft_limit_usd: billing.hardLimitUsd, hard_limit_usd: billing.hardLimitUsd, system_hard_limit_usd: billing.hardLimitUsd, access_until: 0 });
      }
      if (method === 'GET' && billing?.kind === 'subscription' && path === '/v1/dashboard/billing/usage') {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(recorded.query.get('start_date') ?? '') || !/^\d{4}-\d{2}-\d{2}$/.test(recorded.query.get('end_date') ?? '')) {
          return sendJson(response, 400, openAIError('start_date and end_date (YYYY-MM-DD) are required', 'invalid_request_error', null, null));
        }
        return sendJson(response, 200, { object: 'list', total_usage: Math.round(billing.usedUsd * 100 * 1000) / 1000 });
      }
      if (method === 'GET' && billing?.kind === 'credit_grants' && path === '/dashboard/billing/credit_grants') {
        return sendJson(response, 200, { object: 'credit_summary', total_granted: billing.grantedUsd, total_used: billing.usedUsd, total_available: billing.grantedUsd - billing.usedUsd });
      }
      if (method === 'GET' && path.startsWith('/v1/models/')) {
        const id = decodeURIComponent(path.slice('/v1/models/'.length));
        const model = models.find((candidate) => candidate.id === id);
        if (model) return sendJson(response, 200, model);
        return sendJson(response, 404, openAIError(`The model '${id}' does not exist`, 'invalid_request_error', 'model', 'model_not_found'));
      }
      return sendJson(response, 404, openAIError(`Invalid URL (${method} ${path})`, 'invalid_request_error', null, null));
    },
  });
  origin = simulator.url;
  return Object.assign(simulator, { webSocket });
}

function redact(key: string): string {
  return key.length <= 8 ? key : `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}`;
}
