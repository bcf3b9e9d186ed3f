// Rerank services: Jina (/v1/rerank) and Cohere (/v2/rerank). Both take model, query, documents, top_n.
import type { ProviderDefinition } from './provider-definition.ts';

export const jinaProvider: ProviderDefinition = {
  type: 'jina',
  chatFormat: 'openai-chat',
  defaultBaseUrl: 'https://api.jina.ai',
  path: (operation) => (operation === 'rerank' ? '/v1/rerank' : operation === 'embeddings' ? '/v1/embeddings' : null),
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
};

export const cohereProvider: ProviderDefinition = {
  type: 'cohere',
  chatFormat: 'openai-chat',
  defaultBaseUrl: 'https://api.cohere.com',
  path: (operation) => (operation === 'rerank' ? '/v2/rerank' : null),
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
};
