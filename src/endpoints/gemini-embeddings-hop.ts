// OpenAI embeddings to a Gemini channel: batchEmbedContents, translated both ways. Gemini reports no token
// counts for embeddings (Vertex's embedContent does, and is believed), so usage is counted locally from the input texts. Token-array inputs cannot be
// expressed to Gemini and are refused with a 400 naming the field.
import { invalidRequest } from '../gateway-errors.ts';
import { estimateTextTokens } from '../metering/estimate-tokens.ts';
import { emptyUsage } from '../metering/usage.ts';
import { operationPath, supportsOperation } from '../providers/operation-path.ts';
import { geminiGenerateFormat } from '../formats/index.ts';
import { speaksFamilyOf } from '../relay/hops/api-family.ts';
import type { RelayHop } from '../relay/relay-hop.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { gatewayErrorFromUpstream } from '../relay/upstream-error.ts';

interface EmbeddingsRequest {
  input: string | string[] | number[] | number[][];
  dimensions?: number | null;
  encoding_format?: 'float' | 'base64' | null;
  model: string;
}

function textInputs(body: EmbeddingsRequest): string[] {
  if (typeof body.input === 'string') return [body.input];
  if (body.input.every((item) => typeof item === 'string')) return body.input as string[];
  throw invalidRequest("Invalid value for 'input': token arrays cannot be sent to a Gemini model; send text.", 'input', 'unsupported_for_model');
}

interface GeminiEmbeddingAnswer {
  embeddings?: { values?: number[] }[];
  predictions?: { embeddings?: { values?: number[] } }[];
  embedding?: { values?: number[] };
  usageMetadata?: { promptTokenCount?: number };
}

/**
 * The vectors of a Gemini-family embeddings answer: the Gemini API's batchEmbedContents
 * ({embeddings: [{values}]}), Vertex AI's predict ({predictions: [{embeddings: {values}}]}) or Vertex's
 * embedContent ({embedding: {values}, usageMetadata}), whose bodies the Vertex provider wrote from the same
 * request (src/providers/vertex.ts); with the prompt tokens when the answer reports them (embedContent).
 */
export function geminiEmbeddingAnswer(text: string): { vectors: number[][]; promptTokens: number | undefined } {
  const answer = JSON.parse(text) as GeminiEmbeddingAnswer;
  const reported = answer.usageMetadata?.promptTokenCount;
  const promptTokens = typeof reported === 'number' && Number.isSafeInteger(reported) && reported >= 0 ? reported : undefined;
  if (answer.predictions) return { vectors: answer.predictions.map((prediction) => prediction.embeddings?.values ?? []), promptTokens };
  if (answer.embedding) return { vectors: [answer.embedding.values ?? []], promptTokens };
  return { vectors: (answer.embeddings ?? []).map((embedding) => embedding.values ?? []), promptTokens };
}

/** Refuses a call with more texts than the channel's model embeds at once (Vertex's embedContent models: one). */
export function checkInputsPerCall(channel: RoutedChannel, upstreamModel: string, count: number, param: string): void {
  const limit = channel.provider.embeddingInputsPerCall?.(upstreamModel);
  if (limit !== undefined && count > limit) {
    throw invalidRequest(`This model embeds ${limit === 1 ? 'one input' : `${limit} inputs`} per request, and ${count} were sent: send them in separate requests.`, param, 'unsupported_for_model');
  }
}

export function geminiEmbeddingsHop(body: EmbeddingsRequest): RelayHop {
  return {
    supports: (channel) => speaksFamilyOf(channel, geminiGenerateFormat) && supportsOperation(channel, 'embeddings'),
    request(channel, upstreamModel) {
      const texts = textInputs(body);
      checkInputsPerCall(channel, upstreamModel, texts.length, 'input');
      return {
        path: operationPath(channel, 'embeddings', upstreamModel),
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          requests: texts.map((text) => ({
            model: `models/${upstreamModel}`,
            content: { parts: [{ text }] },
            ...(body.dimensions ? { outputDimensionality: body.dimensions } : {}),
          })),
        }),
      };
    },
    whole(text) {
      const texts = textInputs(body);
      const { vectors, promptTokens } = geminiEmbeddingAnswer(text);
      const tokens = promptTokens ?? texts.reduce((sum, input) => sum + estimateTextTokens(input), 0);
      const data = vectors.map((values, index) => {
        return {
          object: 'embedding',
          index,
          embedding: body.encoding_format === 'base64' ? Buffer.from(new Float32Array(values).buffer).toString('base64') : values,
        };
      });
      return {
        body: JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }),
        contentType: 'application/json',
        usage: { ...emptyUsage(), inputTokens: tokens, tokensCounted: true },
      };
    },
    error: (channel, status, text) => gatewayErrorFromUpstream(channel, status, text),
  };
}
