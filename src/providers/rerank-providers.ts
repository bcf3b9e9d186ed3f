// Rerank services: Jina (/v1/rerank) and Cohere (/v2/rerank). Both take model, query, documents, top_n.
import { bearerAuthentication, type ProviderDefinition } from './provider-definition.ts';

export const jinaProvider: ProviderDefinition = {
  type: 'jina',
  chatFormat: 'openai-chat',
  defaultBaseUrl: 'https://api.jina.ai',
  path: (operation) => (operation === 'rerank' ? '/v1/rerank' : operation === 'embeddings' ? '/v1/embeddings' : null),
  authenticate: bearerAuthentication,
};

export const cohereProvider: ProviderDefinition = {
  type: 'cohere',
  chatFormat: 'openai-chat',
  defaultBaseUrl: 'https://api.cohere.com',
  path: (operation) => (operation === 'rerank' ? '/v2/rerank' : null),
  authenticate: bearerAuthentication,
};
