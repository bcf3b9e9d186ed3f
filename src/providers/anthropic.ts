// Anthropic's Messages API. Translated hops pin the version the gateway's converters speak.
import type { ProviderDefinition } from './provider-definition.ts';

const ANTHROPIC_VERSION = '2023-06-01';

export const anthropicProvider: ProviderDefinition = {
  type: 'anthropic',
  chatFormat: 'anthropic-messages',
  defaultBaseUrl: 'https://api.anthropic.com',
  path(operation) {
    switch (operation) {
      case 'chat':
      case 'chat-stream':
        return '/v1/messages';
      case 'models':
        return '/v1/models';
      case 'count-tokens':
        return '/v1/messages/count_tokens';
      default:
        return null;
    }
  },
  // The version the converters speak; a same-format hop sends the client's own instead.
  defaultHeaders: { 'anthropic-version': ANTHROPIC_VERSION },
  authenticate: (_request, apiKey) => ({ 'x-api-key': apiKey }),
};
