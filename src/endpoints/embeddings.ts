// POST /v1/embeddings: input as a string, strings, tokens or token arrays; `dimensions`; `encoding_format`.
// Passed through to OpenAI-format channels, so order, indexes and base64 encoding are the upstream's own;
// translated to Gemini's batchEmbedContents for Gemini channels (gemini-embeddings-hop.ts).
import { z } from 'zod';
import { emptyUsage } from '../metering/usage.ts';
import { estimateInputTokensFromBytes } from '../metering/admission.ts';
import { readUsageObjectFromTail } from '../metering/read-usage-from-tail.ts';
import { estimatePromptTokensIn } from '../metering/estimate-tokens.ts';
import { resolveUsage } from '../metering/resolve-usage.ts';
import { openaiUsageToHub } from '../formats/openai-chat/openai-chat-usage.ts';
import { parseBody } from '../validate-request.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import { openAIJsonPassthroughHop } from '../relay/hops/openai-json-passthrough-hop.ts';
import type { PreparedCall } from '../relay/prepared-call.ts';
import { geminiEmbeddingsHop } from './gemini-embeddings-hop.ts';
import { byChannelFormat } from '../relay/hops/by-channel-format.ts';

const embeddingsSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([
    z.string(),
    z.array(z.string()).min(1).max(2048),
    z.array(z.number().int()).min(1),
    z.array(z.array(z.number().int()).min(1)).min(1).max(2048),
  ]),
  dimensions: z.number().int().min(1).nullish(),
  encoding_format: z.enum(['float', 'base64']).nullish(),
  user: z.string().nullish(),
});

export function prepareEmbeddings(raw: unknown): PreparedCall {
  const body = parseBody(embeddingsSchema, raw);
  return {
    model: body.model,
    stream: false,
    body,
    relay: (deps, call) => {
      const passthrough = openAIJsonPassthroughHop(call, {
        operation: 'embeddings',
        // OpenAI's usage reader; an upstream that reports none is billed by the input it was sent.
        usage: (text) => resolveUsage(openaiUsageToHub(readUsageObjectFromTail(text)), { prompt: () => estimatePromptTokensIn(body, { turns: [], other: ['input'] }), output: () => 0 }),
      });
      return relayEndpoint(deps, call, byChannelFormat(passthrough, geminiEmbeddingsHop(body)), {
        estimate: () => ({ ...emptyUsage(), inputTokens: estimateInputTokensFromBytes(call.rawBody.length) }),
      });
    },
  };
}
