// An upstream described as data: its wire format, where it lives, how to call it and how to authenticate.
import type { FormatName } from '../formats/index.ts';

/** A wire format: one of the registered formats (src/formats/index.ts). */
export type WireFormat = FormatName;

/** Operations a channel may serve; each provider lists the ones it has. */
export type Operation =
  | 'chat' | 'chat-stream' | 'models'
  | 'completions' | 'embeddings' | 'images-generations' | 'images-edits'
  | 'audio-transcriptions' | 'audio-speech' | 'rerank' | 'responses' | 'realtime';

export interface ProviderDefinition {
  type: string;
  /** The wire format of its chat-like endpoint. */
  chatFormat: WireFormat;
  defaultBaseUrl: string;
  /** Path (with query) below the base URL for an operation on an upstream model id; null when unsupported. */
  path(operation: Operation, upstreamModel: string): string | null;
  /** Headers that authenticate one upstream key. */
  authHeaders(apiKey: string): Record<string, string>;
}
