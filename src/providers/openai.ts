// OpenAI and every OpenAI-compatible server (vLLM, Ollama, LM Studio, …).
import { bearerAuthentication, type Operation, type ProviderDefinition } from './provider-definition.ts';

const paths: Partial<Record<Operation, string>> = {
  'chat': '/v1/chat/completions',
  'chat-stream': '/v1/chat/completions',
  'models': '/v1/models',
  'completions': '/v1/completions',
  'embeddings': '/v1/embeddings',
  'images-generations': '/v1/images/generations',
  'images-edits': '/v1/images/edits',
  'audio-transcriptions': '/v1/audio/transcriptions',
  'audio-speech': '/v1/audio/speech',
  'rerank': '/v1/rerank',
  'responses': '/v1/responses',
  'realtime': '/v1/realtime',
};

export const openaiProvider: ProviderDefinition = {
  type: 'openai',
  chatFormat: 'openai-chat',
  // Models such as o1-pro and codex are served only through /v1/responses.
  otherChatFormats: ['openai-responses'],
  defaultBaseUrl: 'https://api.openai.com',
  path: (operation) => paths[operation] ?? null,
  authenticate: bearerAuthentication,
  billing: { subscription: '/v1/dashboard/billing/subscription', usage: '/v1/dashboard/billing/usage', creditGrants: '/dashboard/billing/credit_grants' },
  // On by default for the openai type only: an OpenAI-compatible server that refuses the upgrade costs one
  // refused handshake per client connection (then streamed POSTs), or set `responses_websocket: false`.
  responsesWebSocket: true,
};
