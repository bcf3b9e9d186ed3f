// Anthropic /v1/messages wire shapes (checked against @anthropic-ai/sdk's messages.d.ts). Lenient: unknown
// fields pass through; block types the hub cannot carry are accepted here and refused by the converter.
import { z } from 'zod';

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish();

const anthropicTextBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

const anthropicImageBlockSchema = z.looseObject({
  type: z.literal('image'),
  source: z.discriminatedUnion('type', [
    z.looseObject({ type: z.literal('base64'), media_type: z.string(), data: z.string() }),
    z.looseObject({ type: z.literal('url'), url: z.string() }),
    z.looseObject({ type: z.literal('file'), file_id: z.string() }),
  ]),
});

const anthropicToolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown(),
});

/** Blocks inside a tool result besides text and image (search_result, document, tool_reference, …). */
const otherToolResultBlockSchema = z.looseObject({ type: z.string().refine((type) => type !== 'text' && type !== 'image') });

const anthropicToolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([
    z.string(),
    z.array(z.union([z.discriminatedUnion('type', [anthropicTextBlockSchema, anthropicImageBlockSchema]), otherToolResultBlockSchema])),
  ]).optional(),
  is_error: nullish(z.boolean()),
});

const anthropicThinkingBlockSchema = z.looseObject({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const anthropicRedactedThinkingBlockSchema = z.looseObject({ type: z.literal('redacted_thinking'), data: z.string() });

/** Any other block type (documents, server tools, …): accepted by the schema, refused by the converter. */
const KNOWN_BLOCK_TYPES = new Set(['text', 'image', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking']);
const otherBlockSchema = z.looseObject({ type: z.string().refine((type) => !KNOWN_BLOCK_TYPES.has(type)) });

export const anthropicContentBlockSchema = z.union([
  z.discriminatedUnion('type', [
    anthropicTextBlockSchema,
    anthropicImageBlockSchema,
    anthropicToolUseBlockSchema,
    anthropicToolResultBlockSchema,
    anthropicThinkingBlockSchema,
    anthropicRedactedThinkingBlockSchema,
  ]),
  otherBlockSchema,
]);

export type AnthropicContentBlock = z.output<typeof anthropicContentBlockSchema>;

/** `system` messages inside `messages` (SystemMessageParam: text only) are accepted as the current API does. */
export const anthropicMessageSchema = z.looseObject({
  role: z.enum(['user', 'assistant', 'system']),
  content: z.union([z.string(), z.array(anthropicContentBlockSchema)]),
});

export type AnthropicMessage = z.output<typeof anthropicMessageSchema>;

const anthropicToolSchema = z.looseObject({
  name: z.string().min(1),
  type: nullish(z.string()),
  description: z.string().optional(),
  input_schema: z.record(z.string(), z.unknown()).optional(),
  strict: z.boolean().optional(),
});

const anthropicToolChoiceSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('auto'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('any'), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('tool'), name: z.string(), disable_parallel_tool_use: z.boolean().optional() }),
  z.looseObject({ type: z.literal('none') }),
]);

const anthropicThinkingSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('enabled'), budget_tokens: z.int().min(1) }),
  z.looseObject({ type: z.literal('disabled') }),
  z.looseObject({ type: z.literal('adaptive') }),
  // Thinking only between tool calls (ThinkingConfigBetweenTools).
  z.looseObject({ type: z.literal('between_tools') }),
]);

export const anthropicRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(anthropicMessageSchema).min(1),
  max_tokens: z.int().min(1),
  system: z.union([z.string(), z.array(anthropicTextBlockSchema)]).optional(),
  stop_sequences: z.array(z.string()).optional(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.int().min(0).optional(),
  tools: z.array(anthropicToolSchema).optional(),
  tool_choice: anthropicToolChoiceSchema.optional(),
  thinking: anthropicThinkingSchema.optional(),
  output_config: z
    .looseObject({
      effort: nullish(z.string()),
      format: nullish(z.looseObject({ type: z.literal('json_schema'), schema: z.record(z.string(), z.unknown()) })),
    })
    .optional(),
  metadata: z.looseObject({ user_id: nullish(z.string()) }).optional(),
});

export type AnthropicRequest = z.output<typeof anthropicRequestSchema>;

export const anthropicUsageSchema = z.looseObject({
  input_tokens: nullish(z.number()),
  output_tokens: nullish(z.number()),
  cache_creation_input_tokens: nullish(z.number()),
  cache_read_input_tokens: nullish(z.number()),
  output_tokens_details: nullish(z.looseObject({ thinking_tokens: nullish(z.number()) })),
});

export type AnthropicUsage = z.output<typeof anthropicUsageSchema>;

export const anthropicResponseSchema = z.looseObject({
  id: z.string(),
  type: z.literal('message'),
  role: z.literal('assistant'),
  model: z.string(),
  content: z.array(anthropicContentBlockSchema),
  stop_reason: nullish(z.string()),
  stop_sequence: nullish(z.string()),
  // Required by Anthropic, but an Anthropic-compatible server or proxy may leave it out: the relay counts then.
  usage: nullish(anthropicUsageSchema),
});

export const anthropicStreamEventSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('message_start'), message: z.looseObject({ id: z.string(), model: z.string(), usage: nullish(anthropicUsageSchema) }) }),
  z.looseObject({ type: z.literal('content_block_start'), index: z.number(), content_block: anthropicContentBlockSchema }),
  z.looseObject({
    type: z.literal('content_block_delta'),
    index: z.number(),
    delta: z.looseObject({
      type: z.string(),
      text: z.string().optional(),
      thinking: z.string().optional(),
      signature: z.string().optional(),
      partial_json: z.string().optional(),
    }),
  }),
  z.looseObject({ type: z.literal('content_block_stop'), index: z.number() }),
  z.looseObject({
    type: z.literal('message_delta'),
    delta: z.looseObject({ stop_reason: nullish(z.string()), stop_sequence: nullish(z.string()) }),
    usage: nullish(anthropicUsageSchema),
  }),
  z.looseObject({ type: z.literal('message_stop') }),
  z.looseObject({ type: z.literal('ping') }),
  z.looseObject({ type: z.literal('error'), error: z.looseObject({ type: z.string(), message: z.string() }) }),
]);

export type AnthropicStreamEvent = z.output<typeof anthropicStreamEventSchema>;

export const anthropicErrorSchema = z.looseObject({
  type: z.literal('error').optional(),
  error: z.looseObject({ type: z.string(), message: z.string() }),
});
