// Google Vertex AI: Gemini models (generateContent, the Gemini API's format) and Anthropic's Claude models
// (rawPredict, the Messages format) under one project and location. The wire format therefore depends on
// the model: `formatFor` tells routing which one each upstream model id speaks. Claude on Vertex takes the
// Messages body without `model` (it is in the URL) and with `anthropic_version: "vertex-2023-10-16"`,
// which `prepareBody` writes. Authentication: an OAuth token from the service-account key (vertex-token.ts).
import type { Operation, ProviderDefinition, UpstreamRequestToSign, WireFormat } from './provider-definition.ts';
import { forgetVertexToken, vertexAccessToken } from './vertex-token.ts';
import { pathSegment } from './path-segment.ts';

const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

import { vertexSettings, type VertexChannelSettings } from './vertex-settings.ts';
import { defineProvider } from './provider-entry.ts';

/** `anthropic/claude-x` and `google/gemini-x` name their publisher; a bare `claude-*` is Anthropic's. */
function publisherAndModel(upstreamModel: string): { publisher: string; model: string } {
  const slash = upstreamModel.indexOf('/');
  if (slash > 0) return { publisher: upstreamModel.slice(0, slash), model: upstreamModel.slice(slash + 1) };
  return { publisher: upstreamModel.startsWith('claude') ? 'anthropic' : 'google', model: upstreamModel };
}

/** Vertex's host for a location: regional endpoints, and one global endpoint without a region prefix. */
function vertexBaseUrl(location: string): string {
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

const GEMINI_ACTIONS: Partial<Record<Operation, string>> = {
  'chat': ':generateContent',
  'chat-stream': ':streamGenerateContent?alt=sse',
  'count-tokens': ':countTokens',
  // Vertex has no batchEmbedContents: text-embedding-* and gemini-embedding-001 answer `predict`; the newer
  // Gemini embedding models answer `embedContent` instead (usesEmbedContent).
  'embeddings': ':predict',
};
const ANTHROPIC_ACTIONS: Partial<Record<Operation, string>> = {
  'chat': ':rawPredict',
  'chat-stream': ':streamRawPredict',
};
/**
 * Claude's token counting on Vertex is one endpoint for every model (a pseudo-model `count-tokens`), the
 * model named in the body instead of the path, as Anthropic's Vertex SDK calls it.
 */
const ANTHROPIC_COUNT_TOKENS_MODEL = 'count-tokens';

/**
 * Whether a Google model on Vertex embeds through `:embedContent` (one content per call) rather than
 * `:predict`: the Gemini embedding models after gemini-embedding-001 (gemini-embedding-2…) and partner (MaaS)
 * models, the rule @google/genai applies in Vertex mode (tIsVertexEmbedContentModel).
 */
function usesEmbedContent(model: string): boolean {
  return (model.includes('gemini') && !/^gemini-embedding-001(?:@|$)/.test(model)) || model.includes('maas');
}

/** The wire format each Vertex publisher's models speak (declared, not decided by name elsewhere). */
const FORMAT_OF_PUBLISHER: Readonly<Record<string, WireFormat>> = { google: 'gemini-generate', anthropic: 'anthropic-messages' };
const DEFAULT_FORMAT: WireFormat = 'gemini-generate';

function vertexProvider(settings: VertexChannelSettings): ProviderDefinition {
  const scope = `/v1/projects/${encodeURIComponent(settings.project)}/locations/${encodeURIComponent(settings.location)}`;
  return {
    type: 'vertex',
    chatFormat: 'gemini-generate',
    formatFor: (upstreamModel): WireFormat => FORMAT_OF_PUBLISHER[publisherAndModel(upstreamModel).publisher] ?? DEFAULT_FORMAT,
    defaultBaseUrl: vertexBaseUrl(settings.location),
    path(operation, upstreamModel) {
      const { publisher, model } = publisherAndModel(upstreamModel);
      if (publisher === 'anthropic' && operation === 'count-tokens') return `${scope}/publishers/anthropic/models/${ANTHROPIC_COUNT_TOKENS_MODEL}:rawPredict`;
      if (publisher === 'google' && operation === 'embeddings' && usesEmbedContent(model)) return `${scope}/publishers/google/models/${pathSegment(model)}:embedContent`;
      const action = (publisher === 'anthropic' ? ANTHROPIC_ACTIONS : GEMINI_ACTIONS)[operation];
      if (action === undefined) return null;
      return `${scope}/publishers/${pathSegment(publisher)}/models/${pathSegment(model)}${action}`;
    },
    embeddingInputsPerCall(upstreamModel) {
      const { publisher, model } = publisherAndModel(upstreamModel);
      return publisher === 'google' && usesEmbedContent(model) ? 1 : undefined;
    },
    prepareBody(path, body) {
      if (path.endsWith(':predict')) return predictBody(body);
      if (path.endsWith(':embedContent')) return embedContentBody(body);
      if (path.endsWith(':countTokens')) return countTokensBody(body);
      if (!/:(?:stream)?[rR]awPredict$/.test(path)) return body;
      const parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as Record<string, unknown>;
      // Counting keeps the model in the body (without its `anthropic/` publisher prefix); generating moves it to the path.
      if (path.endsWith(`/models/${ANTHROPIC_COUNT_TOKENS_MODEL}:rawPredict`)) {
        if (typeof parsed.model === 'string') parsed.model = publisherAndModel(parsed.model).model;
      } else delete parsed.model;
      parsed.anthropic_version ??= VERTEX_ANTHROPIC_VERSION;
      return JSON.stringify(parsed);
    },
    authenticate: (_request: UpstreamRequestToSign, apiKey: string) => vertexAccessToken(apiKey, settings.token_url).then((token) => ({ authorization: `Bearer ${token}` })),
    forgetCredential: (apiKey) => forgetVertexToken(apiKey, settings.token_url),
  };
}

export const vertexEntry = defineProvider({
  type: 'vertex',
  chatFormat: 'gemini-generate',
  settings: vertexSettings,
  credential: { label: 'Upstream API key', description: "The service account's JSON key file, pasted whole." },
  create: (settings) => vertexProvider(settings.vertex),
});

interface BatchEmbedRequest { content?: { parts?: { text?: string }[] }; taskType?: string; title?: string; outputDimensionality?: number }

/**
 * The embedding hops write Gemini's batchEmbedContents body; Vertex's predict takes one instance per text
 * (`content`, `task_type`, `title`) and one `outputDimensionality` for the call (the first request's).
 */
function predictBody(body: string | Buffer): string {
  const { requests = [] } = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as { requests?: BatchEmbedRequest[] };
  const instances = requests.map((request) => ({
    content: (request.content?.parts ?? []).map((part) => part.text ?? '').join(' ').trim(),
    ...(request.taskType ? { task_type: request.taskType } : {}),
    ...(request.title ? { title: request.title } : {}),
  }));
  const dimensions = requests.find((request) => request.outputDimensionality !== undefined)?.outputDimensionality;
  return JSON.stringify({ instances, ...(dimensions !== undefined ? { parameters: { outputDimensionality: dimensions } } : {}) });
}

/**
 * Vertex's embedContent takes one `content` and its settings in `embedContentConfig` (as @google/genai writes
 * it in Vertex mode); the hops check beforehand that the call carries one text (embeddingInputsPerCall).
 */
function embedContentBody(body: string | Buffer): string {
  const { requests = [] } = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as { requests?: BatchEmbedRequest[] };
  const [request = {}] = requests;
  const config = {
    ...(request.taskType ? { taskType: request.taskType } : {}),
    ...(request.title ? { title: request.title } : {}),
    ...(request.outputDimensionality !== undefined ? { outputDimensionality: request.outputDimensionality } : {}),
  };
  return JSON.stringify({ content: { role: 'user', parts: request.content?.parts ?? [] }, ...(Object.keys(config).length > 0 ? { embedContentConfig: config } : {}) });
}

/**
 * Vertex's countTokens takes `contents`, `systemInstruction`, `tools` and `generationConfig` at the top, not
 * the Gemini API's `generateContentRequest` wrapper: the wrapped request is unwrapped (its `model` dropped).
 */
function countTokensBody(body: string | Buffer): string | Buffer {
  const parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as { generateContentRequest?: Record<string, unknown> };
  if (!parsed.generateContentRequest) return body;
  const { model: _model, ...request } = parsed.generateContentRequest;
  return JSON.stringify(request);
}
