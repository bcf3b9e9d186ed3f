// Zod schemas of Bedrock's Converse wire (bedrock-runtime 2023-09-30): the request, the answer, the stream's
// event payloads and the error body. Lenient: unknown fields are kept, so newer members pass through.
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
import { z } from 'zod';

const imageBlock = z.looseObject({
  format: z.string(),
  source: z.looseObject({ bytes: z.string().optional() }),
});

const toolResultContent = z.looseObject({
  text: z.string().optional(),
  json: z.unknown().optional(),
  image: imageBlock.optional(),
});

export const converseContentBlockSchema = z.looseObject({
  text: z.string().optional(),
  image: imageBlock.optional(),
  toolUse: z.looseObject({ toolUseId: z.string(), name: z.string(), input: z.unknown() }).optional(),
  toolResult: z.looseObject({
    toolUseId: z.string(),
    content: z.array(toolResultContent),
    status: z.enum(['success', 'error']).optional(),
  }).optional(),
  reasoningContent: z.looseObject({
    reasoningText: z.looseObject({ text: z.string(), signature: z.string().optional() }).optional(),
    redactedContent: z.string().optional(),
  }).optional(),
  cachePoint: z.looseObject({ type: z.string() }).optional(),
});
export type ConverseContentBlock = z.infer<typeof converseContentBlockSchema>;

const converseMessageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.array(converseContentBlockSchema),
});

const toolSpecSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  inputSchema: z.looseObject({ json: z.record(z.string(), z.unknown()) }),
});

export const converseRequestSchema = z.looseObject({
  messages: z.array(converseMessageSchema),
  system: z.array(z.looseObject({ text: z.string().optional(), cachePoint: z.unknown().optional() })).optional(),
  inferenceConfig: z.looseObject({
    maxTokens: z.number().int().positive().optional(),
    temperature: z.number().min(0).optional(),
    topP: z.number().min(0).max(1).optional(),
    stopSequences: z.array(z.string()).optional(),
  }).optional(),
  toolConfig: z.looseObject({
    tools: z.array(z.looseObject({ toolSpec: toolSpecSchema.optional(), cachePoint: z.unknown().optional() })),
    toolChoice: z.looseObject({
      auto: z.object({}).optional(),
      any: z.object({}).optional(),
      tool: z.looseObject({ name: z.string() }).optional(),
    }).optional(),
  }).optional(),
  requestMetadata: z.record(z.string(), z.string()).optional(),
});
export type ConverseRequest = z.infer<typeof converseRequestSchema>;

const converseUsageSchema = z.looseObject({
  inputTokens: z.number().optional(),
  outputTokens: z.number().optional(),
  totalTokens: z.number().optional(),
  cacheReadInputTokens: z.number().optional(),
  cacheWriteInputTokens: z.number().optional(),
});

export const converseResponseSchema = z.looseObject({
  output: z.looseObject({ message: converseMessageSchema }),
  stopReason: z.string(),
  usage: converseUsageSchema.optional(),
});

/** The error body of every Bedrock failure: `{"message": …}`; the type is in the x-amzn-errortype header. */
export const converseErrorSchema = z.looseObject({
  message: z.string().optional(),
  Message: z.string().optional(),
  __type: z.string().optional(),
});
