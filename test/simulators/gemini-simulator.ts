// A simulator of Google's Gemini API (generativelanguage.googleapis.com), answering in Google's shapes:
//   POST /v1beta/models/{model}:generateContent         (gemini-simulator-generate.ts)
//   POST /v1beta/models/{model}:streamGenerateContent   ?alt=sse → `data: <GenerateContentResponse>\r\n\r\n`
//                                                        events; without alt=sse, a streamed JSON array
//   POST /v1beta/models/{model}:countTokens             {totalTokens}
//   POST /v1beta/models/{model}:embedContent / :batchEmbedContents
//   GET  /v1beta/models (pageSize, pageToken), GET /v1beta/models/{model}
// The same paths under /v1/ are served too. Auth: `x-goog-api-key` header or `?key=`; a wrong key gets
// Google's 400 INVALID_ARGUMENT with reason API_KEY_INVALID, no key at all 403 PERMISSION_DENIED.
// Replies (simulator-answers.ts): `Hello from the Gemini simulator: you said "<last user text>"`;
// functionCall parts when `tools[].functionDeclarations` are offered and the last user text mentions
// "weather" (one per city, calling the first declared function with {city}); after functionResponse parts
// `The tool said: <each response's result/output/content string, or its JSON, joined by "; ">`; with
// generationConfig.thinkingConfig.includeThoughts a `{text: 'Thinking about "…".', thought: true}` part first.
// With a googleSearch tool and "search" in the last user text, search grounding: the answer of
// webSearchFinding with the candidate's groundingMetadata (webSearchQueries, one groundingChunk, a support
// spanning the answer; streamed: on the last chunk).
// With a urlContext tool and http(s) URLs in the last user text, URL context: the answer of webFetchAnswer
// (what each page said) with the candidate's urlContextMetadata (urlMetadata: retrievedUrl and
// urlRetrievalStatus SUCCESS, or ERROR for a host under .invalid; streamed: on the first chunk, as the pages
// are read before the answer) and usage's toolUsePromptTokenCount = words of the pages read.
// A thoughtSignature sent back that the simulator did not make (nor Google's `skip_thought_signature_validator`)
// is refused with 400 INVALID_ARGUMENT, as Google refuses a signature it cannot verify.
// `stopSequences` cut the text (finishReason STOP); `maxOutputTokens` cuts it to that many words
// (finishReason MAX_TOKENS). `candidateCount` answers that many candidates, index 0 to count-1, each the
// same answer cut by maxOutputTokens on its own (streamed: every chunk carries each candidate's next piece).
// Usage: promptTokenCount = words of systemInstruction and every part; candidatesTokenCount = words of the
// answer (function-call args as JSON); thoughtsTokenCount = words of the thought (only when shown); both
// summed over the candidates.
// Embeddings: simulatedEmbedding(text of the parts, outputDimensionality ?? 3072 for gemini-embedding-001,
// 768 otherwise).
import { headerValue, startSimulator, type Simulator } from './simulator-core.ts';
import { sendJson } from './simulator-http.ts';
import { geminiError, geminiErrorForStatus, geminiInvalidKeyError, geminiMissingKeyError } from './gemini-simulator-errors.ts';
import { batchEmbedContents, countTokens, embedContent, generateContent } from './gemini-simulator-generate.ts';

export type GeminiSimulator = Simulator;

interface GeminiSimulatorOptions {
  /** The accepted key; default 'sim-gemini-key'. */
  apiKey?: string;
  /** Record every request in `sim.requests` (default true; false for benchmarks). */
  recordRequests?: boolean;
  /** Model ids (without `models/`) served by GET /v1beta/models. */
  models?: string[];
}

const DEFAULT_GEMINI_MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-2.0-flash', 'gemini-embedding-001'];

// A model name may span segments (`google/gemini-2.0-flash`, as @google/genai sends a prefixed id).
const ACTION_PATH = /^\/v1(?:beta)?\/models\/(.+):([A-Za-z]+)$/;

export function startGeminiSimulator(options: GeminiSimulatorOptions = {}): Promise<GeminiSimulator> {
  const apiKey = options.apiKey ?? 'sim-gemini-key';
  const models = (options.models ?? DEFAULT_GEMINI_MODELS).map(describeModel);
  return startSimulator({
    recordRequests: options.recordRequests,
    errorBody: geminiErrorForStatus,
    checkAuth: ({ request, recorded }) => {
      const key = headerValue(request, 'x-goog-api-key') ?? recorded.query.get('key') ?? undefined;
      if (key === apiKey) return null;
      return key === undefined ? { status: 403, body: geminiMissingKeyError() } : { status: 400, body: geminiInvalidKeyError() };
    },
    handle: (exchange) => {
      const { recorded, response } = exchange;
      const { method, path } = recorded;
      const action = method === 'POST' ? ACTION_PATH.exec(path) : null;
      if (action) {
        const model = decodeURIComponent(action[1]!);
        switch (action[2]) {
          case 'generateContent': return generateContent(exchange, model, false);
          case 'streamGenerateContent': return generateContent(exchange, model, true);
          case 'countTokens': return countTokens(exchange);
          case 'embedContent': return embedContent(exchange, model);
          case 'batchEmbedContents': return batchEmbedContents(exchange, model);
        }
      }
      if (method === 'GET' && (path === '/v1beta/models' || path === '/v1/models')) {
        const pageSize = Math.min(Math.max(Number(recorded.query.get('pageSize') ?? 50) || 50, 1), 1000);
        const start = Number(recorded.query.get('pageToken') ?? 0) || 0;
        const page = models.slice(start, start + pageSize);
        const next = start + page.length < models.length ? { nextPageToken: String(start + page.length) } : {};
        return sendJson(response, 200, { models: page, ...next });
      }
      const single = method === 'GET' ? /^\/v1(?:beta)?\/models\/([^:]+)$/.exec(path) : null;
      if (single) {
        const model = models.find((candidate) => candidate.name === `models/${decodeURIComponent(single[1]!)}`);
        if (model) return sendJson(response, 200, model);
        return sendJson(response, 404, geminiError(404, 'NOT_FOUND', `models/${single[1]} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`));
      }
      return sendJson(response, 404, geminiError(404, 'NOT_FOUND', `Invalid path: ${method} ${path}`));
    },
  });
}

function describeModel(id: string) {
  const display = id.split('-').map((word) => (/^\d/.test(word) ? word : word[0]!.toUpperCase() + word.slice(1))).join(' ');
  if (id.includes('embedding')) {
    return {
      name: `models/${id}`, version: '001', displayName: display, description: `Simulated ${display}`,
      inputTokenLimit: 2048, outputTokenLimit: 1, supportedGenerationMethods: ['embedContent', 'countTextTokens', 'countTokens', 'asyncBatchEmbedContent'],
    };
  }
  return {
    name: `models/${id}`, version: '001', displayName: display, description: `Simulated ${display}`,
    inputTokenLimit: 1_048_576, outputTokenLimit: 65_536,
    supportedGenerationMethods: ['generateContent', 'countTokens', 'createCachedContent', 'batchGenerateContent'],
    temperature: 1, topP: 0.95, topK: 64, maxTemperature: 2, thinking: id.startsWith('gemini-2.5'),
  };
}
