// Google's Gemini API (generativelanguage). Keys go in a header, never the query, so they stay out of access logs.
import type { ProviderDefinition } from './provider-definition.ts';

export const geminiProvider: ProviderDefinition = {
  type: 'gemini',
  chatFormat: 'gemini-generate',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  path(operation, upstreamModel) {
    // Each segment encoded, slashes kept: `google/gemini-x` is sent as @google/genai sends it.
    // Dot segments are encoded too, so no mapped id can walk up the upstream's path.
    const model = upstreamModel.split('/').map((segment) => (segment === '.' || segment === '..' ? segment.replaceAll('.', '%2E') : encodeURIComponent(segment))).join('/');
    switch (operation) {
      case 'chat':
        return `/v1beta/models/${model}:generateContent`;
      case 'chat-stream':
        return `/v1beta/models/${model}:streamGenerateContent?alt=sse`;
      case 'models':
        return '/v1beta/models';
      case 'embeddings':
        return `/v1beta/models/${model}:batchEmbedContents`;
      case 'count-tokens':
        return `/v1beta/models/${model}:countTokens`;
      default:
        return null;
    }
  },
  authenticate: (_request, apiKey) => ({ 'x-goog-api-key': apiKey }),
};
