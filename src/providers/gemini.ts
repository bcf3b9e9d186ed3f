// Google's Gemini API (generativelanguage). Keys go in a header, never the query, so they stay out of access logs.
import type { ProviderDefinition } from './provider-definition.ts';

export const geminiProvider: ProviderDefinition = {
  type: 'gemini',
  chatFormat: 'gemini-generate',
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  path(operation, upstreamModel) {
    const model = encodeURIComponent(upstreamModel);
    switch (operation) {
      case 'chat':
        return `/v1beta/models/${model}:generateContent`;
      case 'chat-stream':
        return `/v1beta/models/${model}:streamGenerateContent?alt=sse`;
      case 'models':
        return '/v1beta/models';
      case 'embeddings':
        return `/v1beta/models/${model}:batchEmbedContents`;
      default:
        return null;
    }
  },
  authenticate: (_request, apiKey) => ({ 'x-goog-api-key': apiKey }),
};
