// The OpenTelemetry GenAI semantic conventions' names for what the gateway relays: the operation of each
// route and the provider of each channel type (gen_ai.operation.name and gen_ai.provider.name, with their
// well-known values where one applies; the conventions allow a custom value where none does).

/** gen_ai.operation.name by route, and gen_ai.output.type where the route implies one. */
export function operationOf(endpoint: string): { operation: string; outputType?: string } {
  switch (endpoint) {
    case '/v1/completions':
      return { operation: 'text_completion' };
    case '/v1/embeddings':
    case '/v1beta/models/{model}:embedContent':
    case '/v1beta/models/{model}:batchEmbedContents':
      return { operation: 'embeddings' };
    case '/v1beta/models/{model}:generateContent':
    case '/v1beta/models/{model}:streamGenerateContent':
      return { operation: 'generate_content' };
    case '/v1/images/generations':
    case '/v1/images/edits':
      return { operation: 'generate_content', outputType: 'image' };
    case '/v1/audio/speech':
      return { operation: 'generate_content', outputType: 'speech' };
    case '/v1/audio/transcriptions':
      return { operation: 'generate_content', outputType: 'text' };
    case '/v1/rerank':
      // No well-known value fits: a custom one, as the conventions allow.
      return { operation: 'rerank' };
    default:
      // Chat completions, Messages, Responses.
      return { operation: 'chat' };
  }
}

const PROVIDERS: Record<string, string> = {
  'openai': 'openai',
  'azure-openai': 'azure.ai.openai',
  'anthropic': 'anthropic',
  'gemini': 'gcp.gemini',
  'vertex': 'gcp.vertex_ai',
  'bedrock': 'aws.bedrock',
  'cohere': 'cohere',
  'jina': 'jina',
};

/** gen_ai.provider.name of a channel type (an OpenAI-compatible server is reached as `openai`). */
export function providerNameOf(channelType: string): string {
  return PROVIDERS[channelType] ?? channelType;
}
