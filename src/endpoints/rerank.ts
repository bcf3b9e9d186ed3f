// POST /v1/rerank: the Jina/Cohere request (model, query, documents, top_n, return_documents) to channels of
// type jina or cohere (or an OpenAI-compatible server with /v1/rerank). Answers come back in the common
// shape: results[].index, relevance_score and, when asked, document.text; priced per request or search.
import { z } from 'zod';
import { emptyUsage, type Usage } from '../metering/usage.ts';
import { parseBody } from '../validate-request.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import { openAIJsonPassthroughHop } from '../relay/hops/openai-json-passthrough-hop.ts';
import { supportsOperation } from '../providers/operation-path.ts';
import type { PreparedCall } from '../relay/prepared-call.ts';

const documentSchema = z.union([z.string(), z.looseObject({ text: z.string() })]);
const rerankSchema = z.looseObject({
  model: z.string().min(1),
  query: z.string().min(1),
  documents: z.array(documentSchema).min(1).max(10_000),
  top_n: z.number().int().min(1).nullish(),
  return_documents: z.boolean().nullish(),
});

type RerankBody = z.infer<typeof rerankSchema>;
interface RerankAnswer {
  id?: string;
  model?: string;
  results?: { index: number; relevance_score: number; document?: unknown }[];
  usage?: { total_tokens?: number; prompt_tokens?: number };
  meta?: { billed_units?: { search_units?: number } };
}

export function prepareRerank(raw: unknown): PreparedCall {
  const body = parseBody(rerankSchema, raw);
  const texts = body.documents.map((document) => (typeof document === 'string' ? document : document.text));
  return {
    model: body.model,
    stream: false,
    body,
    relay: (deps, call) => relayEndpoint(deps, call, openAIJsonPassthroughHop(call, {
      operation: 'rerank',
      supports: (channel) => supportsOperation(channel, 'rerank'),
      body: (upstreamModel, channel) => JSON.stringify(upstreamRequest(body, upstreamModel, texts, channel.type)),
      transform: (text) => JSON.stringify(commonAnswer(JSON.parse(text) as RerankAnswer, body, texts)),
      usage: (text) => rerankUsage(text),
    }), { estimate: () => ({ ...emptyUsage(), searches: 1 }) }),
  };
}

/** Cohere's v2 API has no return_documents (the caller has them); Jina's takes it. */
function upstreamRequest(body: RerankBody, upstreamModel: string, texts: string[], channelType: string): object {
  const common = { model: upstreamModel, query: body.query, documents: texts, ...(body.top_n ? { top_n: body.top_n } : {}) };
  return channelType === 'cohere' ? common : { ...common, return_documents: body.return_documents ?? false };
}

function commonAnswer(answer: RerankAnswer, body: RerankBody, texts: string[]): object {
  return {
    ...(answer.id ? { id: answer.id } : {}),
    model: body.model,
    results: (answer.results ?? []).map((result) => ({
      index: result.index,
      relevance_score: result.relevance_score,
      ...(body.return_documents ? { document: { text: texts[result.index] ?? '' } } : {}),
    })),
    usage: { total_tokens: answer.usage?.total_tokens ?? answer.usage?.prompt_tokens ?? 0 },
  };
}

function rerankUsage(text: string): Usage {
  try {
    const answer = JSON.parse(text) as RerankAnswer;
    return { ...emptyUsage(), inputTokens: answer.usage?.total_tokens ?? 0, searches: answer.meta?.billed_units?.search_units ?? 1 };
  } catch {
    return { ...emptyUsage(), searches: 1 };
  }
}
