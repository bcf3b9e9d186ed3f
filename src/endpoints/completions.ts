// POST /v1/completions: legacy prompt completion, streamed and not, to OpenAI-type channels.
import { z } from 'zod';
import { estimateChatUsage } from '../metering/admission.ts';
import { parseBody } from '../validate-request.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import { passthroughChatHop } from '../relay/hops/passthrough-chat-hop.ts';
import { openaiChatFormat } from '../formats/index.ts';

/** Legacy completions are sent to one operation, streamed or not; their chunks are read as chat's. */
const COMPLETIONS = { whole: 'completions', stream: 'completions' } as const;
import type { PreparedCall } from '../relay/prepared-call.ts';

const promptSchema = z.union([z.string(), z.array(z.string()), z.array(z.number().int()), z.array(z.array(z.number().int()))]);
const completionsSchema = z.looseObject({
  model: z.string().min(1),
  prompt: promptSchema,
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  n: z.number().int().min(1).max(128).nullish(),
  // Generated upstream and billed, though only the best `n` come back.
  best_of: z.number().int().min(0).nullish(),
});

export function prepareCompletions(raw: unknown): PreparedCall {
  const body = parseBody(completionsSchema, raw);
  return {
    model: body.model,
    stream: body.stream === true,
    body,
    relay: (deps, call) => relayEndpoint(deps, call, passthroughChatHop({ call, format: openaiChatFormat, logger: deps.logger, operations: COMPLETIONS }), { estimate: estimateChatUsage(call.rawBody.length, body.max_tokens ?? 16, Math.max(body.n ?? 1, body.best_of ?? 1)) }),
  };
}
