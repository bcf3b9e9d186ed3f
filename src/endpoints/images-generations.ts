// POST /v1/images/generations: prompt, n, size, quality and response_format checked against the model's
// limits, then passed through; priced per image by size and quality (plus tokens where reported).
import { z } from 'zod';
import { emptyUsage, type Usage } from '../metering/usage.ts';
import { parseBody } from '../validate-request.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import { openAIJsonPassthroughHop } from '../relay/hops/openai-json-passthrough-hop.ts';
import type { PreparedCall } from '../relay/prepared-call.ts';
import { checkImageRequest, defaultImageSize, imageLimitsFor } from './image-limits.ts';

const generationsSchema = z.looseObject({
  model: z.string().min(1).default('dall-e-2'),
  prompt: z.string().min(1),
  n: z.number().int().min(1).nullish(),
  size: z.string().nullish(),
  quality: z.string().nullish(),
  response_format: z.enum(['url', 'b64_json']).nullish(),
  style: z.enum(['vivid', 'natural']).nullish(),
});

export function prepareImageGenerations(raw: unknown): PreparedCall {
  const body = parseBody(generationsSchema, raw);
  return {
    model: body.model,
    stream: false,
    body,
    relay: (deps, call) => {
      const limits = imageLimitsFor(body.model, deps.state.current.models.get(body.model));
      checkImageRequest(body.model, limits, body);
      const size = body.size ?? defaultImageSize(limits);
      const quality = body.quality ?? 'standard';
      const requested = body.n ?? 1;
      return relayEndpoint(deps, call, openAIJsonPassthroughHop(call, {
        operation: 'images-generations',
        usage: (text) => imageUsage(text, requested, size, quality),
      }), { estimate: () => ({ ...emptyUsage(), images: { count: requested, size, quality } }) });
    },
  };
}

/** Images actually returned, plus the token usage gpt-image models report. */
export function imageUsage(text: string, requested: number, size: string, quality: string): Usage {
  try {
    const answer = JSON.parse(text) as { data?: unknown[]; usage?: { input_tokens?: number; output_tokens?: number } };
    return {
      ...emptyUsage(),
      inputTokens: answer.usage?.input_tokens ?? 0,
      outputTokens: answer.usage?.output_tokens ?? 0,
      images: { count: Array.isArray(answer.data) ? answer.data.length : requested, size, quality },
    };
  } catch {
    return { ...emptyUsage(), images: { count: requested, size, quality } };
  }
}
