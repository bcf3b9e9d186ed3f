// OpenAI and every OpenAI-compatible server (vLLM, Ollama, LM Studio, …).
import type { ProviderDefinition } from './provider-definition.ts';

export const openaiProvider: ProviderDefinition = {
  type: 'openai',
  chatFormat: 'openai-chat',
  defaultBaseUrl: 'https://api.openai.com',
  path(operation) {
    switch (operation) {
      case 'chat':
      case 'chat-stream':
        return '/v1/chat/completions';
      case 'models':
        return '/v1/models';
    }
  },
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
};
