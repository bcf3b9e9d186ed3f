// The operations an upstream may serve: a provider gives the path of each (src/providers/*), and a format
// names the ones its chat is sent to (FormatConverters.chatOperations). count-tokens is exact prompt token
// counting (Anthropic's count_tokens, Gemini's countTokens; OpenAI has none).
export const operations = [
  'chat', 'chat-stream', 'models',
  'completions', 'embeddings', 'images-generations', 'images-edits',
  'audio-transcriptions', 'audio-speech', 'rerank', 'responses', 'realtime',
  'count-tokens',
] as const;

export type Operation = typeof operations[number];
