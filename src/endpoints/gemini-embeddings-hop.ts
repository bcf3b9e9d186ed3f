// OpenAI embeddings to a Gemini channel: batchEmbedContents, translated both ways. Gemini reports no token
// counts for embeddings, so usage is counted locally from the input texts. Token-array inputs cannot be
// expressed to Gemini and are refused with a 400 naming the field.
import { invalidRequest } from '../gateway-errors.ts';
import { estimateTextTokens } from '../metering/estimate-tokens.ts';
import { emptyUsage } from '../metering/usage.ts';
import { operationPath, supportsOperation } from '../providers/operation-path.ts';
import { geminiGenerateFormat } from '../formats/index.ts';
import { speaksFamilyOf } from '../relay/hops/api-family.ts';
import type { RelayHop } from '../relay/relay-hop.ts';
import { gatewayErrorFromUpstream } from '../relay/upstream-error.ts';

export interface EmbeddingsRequest {
  input: string | string[] | number[] | number[][];
  dimensions?: number | null;
  encoding_format?: 'float' | 'base64' | null;
  model: string;
}

export function textInputs(body: EmbeddingsRequest): string[] {
  if (typeof body.input === 'string') return [body.input];
  if (body.input.every((item) => typeof item === 'string')) return body.input as string[];
  throw invalidRequest("Invalid value for 'input': token arrays cannot be sent to a Gemini model; send text.", 'input', 'unsupported_for_model');
}

/**
 * The vectors of a Gemini-family embeddings answer: the Gemini API's batchEmbedContents
 * ({embeddings: [{values}]}) or Vertex AI's predict ({predictions: [{embeddings: {values}}]}), whose body
 * the Vertex provider wrote from the same request (src/providers/vertex.ts).
 */
export function geminiEmbeddingValues(text: string): number[][] {
  const answer = JSON.parse(text) as { embeddings?: { values?: number[] }[]; predictions?: { embeddings?: { values?: number[] } }[] };
  if (answer.predictions) return answer.predictions.map((prediction) => prediction.embeddings?.values ?? []);
  return (answer.embeddings ?? []).map((embedding) => embedding.values ?? []);
}

export function geminiEmbeddingsHop(body: EmbeddingsRequest): RelayHop {
  return {
    supports: (channel) => speaksFamilyOf(channel, geminiGenerateFormat) && supportsOperation(channel, 'embeddings'),
    request(channel, upstreamModel) {
      const texts = textInputs(body);
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
      const tokens = texts.reduce((sum, input) => sum + estimateTextTokens(input), 0);
      const data = geminiEmbeddingValues(text).map((values, index) => {
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
