// Gemini's :embedContent and :batchEmbedContents, in Gemini's request and answer shapes, to any embedding
// channel: passed to a Gemini channel as batchEmbedContents (model names mapped), translated to
// POST /v1/embeddings for an OpenAI-type one. Metered like /v1/embeddings: the upstream's prompt_tokens
// when it reports them (OpenAI), else the input texts counted locally (Gemini reports no token counts).
import { z } from 'zod';
import { invalidRequest } from '../gateway-errors.ts';
import { estimateInputTokensFromBytes } from '../metering/admission.ts';
import { estimateTextTokens } from '../metering/estimate-tokens.ts';
import { emptyUsage } from '../metering/usage.ts';
import { parseBody } from '../validate-request.ts';
import { operationPath, supportsOperation } from '../providers/operation-path.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import { byChannelFormat } from '../relay/hops/by-channel-format.ts';
import type { PreparedCall } from '../relay/prepared-call.ts';
import type { RelayHop } from '../relay/relay-hop.ts';
import { gatewayErrorFromUpstream } from '../relay/upstream-error.ts';
import { geminiGenerateFormat, openaiChatFormat } from '../formats/index.ts';
import { speaksFamilyOf } from '../relay/hops/api-family.ts';
import { checkInputsPerCall, geminiEmbeddingAnswer } from './gemini-embeddings-hop.ts';

/** The most texts one call may embed, as for /v1/embeddings. */
const MAX_REQUESTS = 2048;

const contentSchema = z.looseObject({ role: z.string().optional(), parts: z.array(z.looseObject({ text: z.string().optional() })).min(1) });
const embedRequestSchema = z.looseObject({
  model: z.string().optional(),
  content: contentSchema,
  taskType: z.string().optional(),
  title: z.string().optional(),
  outputDimensionality: z.number().int().min(1).optional(),
});
const batchSchema = z.looseObject({ requests: z.array(embedRequestSchema).min(1).max(MAX_REQUESTS) });

type EmbedRequest = z.infer<typeof embedRequestSchema>;

export function prepareGeminiEmbed(raw: unknown, model: string, batch: boolean): PreparedCall {
  const requests: EmbedRequest[] = batch ? parseBody(batchSchema, raw).requests : [parseBody(embedRequestSchema, raw)];
  return {
    model,
    stream: false,
    body: (raw ?? {}) as Record<string, unknown>,
    relay: (deps, call) => {
      const texts = requests.map((request) => request.content.parts.map((part) => part.text ?? '').join(' ').trim());
      const localTokens = () => texts.reduce((sum, text) => sum + estimateTextTokens(text), 0);
      const answer = (embeddings: { values: number[] }[]) => JSON.stringify(batch ? { embeddings } : { embedding: embeddings[0] ?? { values: [] } });
      const geminiHop: RelayHop = {
        supports: (channel) => speaksFamilyOf(channel, geminiGenerateFormat) && supportsOperation(channel, 'embeddings'),
        request: (channel, upstreamModel) => {
          checkInputsPerCall(channel, upstreamModel, requests.length, 'requests');
          return {
            path: operationPath(channel, 'embeddings', upstreamModel),
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ requests: requests.map((request) => ({ ...request, model: `models/${upstreamModel}` })) }),
          };
        },
        whole: (text) => {
          const { vectors, promptTokens } = geminiEmbeddingAnswer(text);
          const embeddings = vectors.map((values) => ({ values }));
          return { body: answer(embeddings), contentType: 'application/json', usage: { ...emptyUsage(), inputTokens: promptTokens ?? localTokens() } };
        },
        error: (channel, status, text) => gatewayErrorFromUpstream(channel, status, text),
      };
      const openAIHop: RelayHop = {
        supports: (channel) => speaksFamilyOf(channel, openaiChatFormat) && supportsOperation(channel, 'embeddings'),
        request: (channel, upstreamModel) => ({
          path: operationPath(channel, 'embeddings', upstreamModel),
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: upstreamModel, input: openAIInputs(requests, texts), encoding_format: 'float', ...dimensionsOf(requests) }),
        }),
        whole: (text) => {
          const parsed = JSON.parse(text) as { data?: { index?: number; embedding?: number[] }[]; usage?: { prompt_tokens?: number } };
          const ordered = [...(parsed.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
          const tokens = parsed.usage?.prompt_tokens ?? localTokens();
          return { body: answer(ordered.map((item) => ({ values: item.embedding ?? [] }))), contentType: 'application/json', usage: { ...emptyUsage(), inputTokens: tokens } };
        },
        error: (channel, status, text) => gatewayErrorFromUpstream(channel, status, text),
      };
      const dropped = requests.some((request) => request.taskType !== undefined || request.title !== undefined);
      if (dropped) deps.logger.debug({ requestId: call.requestId }, 'taskType and title are not sent to OpenAI-type embedding channels');
      return relayEndpoint(deps, call, byChannelFormat(geminiHop, openAIHop), {
        estimate: () => ({ ...emptyUsage(), inputTokens: estimateInputTokensFromBytes(call.rawBody.length) }),
      });
    },
  };
}

/** OpenAI embeds text only: parts other than text cannot be sent there. */
function openAIInputs(requests: EmbedRequest[], texts: string[]): string[] {
  requests.forEach((request, i) => {
    const other = request.content.parts.findIndex((part) => typeof part.text !== 'string');
    if (other >= 0) throw invalidRequest(`Only text parts can be embedded by this model's channel; requests[${i}].content.parts[${other}] is not text.`, `requests[${i}].content.parts[${other}]`, 'unsupported_for_model');
  });
  return texts;
}

/** One outputDimensionality for the whole call, as OpenAI takes one `dimensions`. */
function dimensionsOf(requests: EmbedRequest[]): { dimensions?: number } {
  const values = new Set(requests.map((request) => request.outputDimensionality));
  if (values.size > 1) throw invalidRequest('Every request must ask for the same outputDimensionality when the model is served by an OpenAI-type channel.', 'requests[].outputDimensionality', 'invalid_value');
  const [dimensions] = values;
  return dimensions === undefined ? {} : { dimensions };
}
