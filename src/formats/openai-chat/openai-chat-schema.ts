// OpenAI /v1/chat/completions wire shapes (checked against openai's completions.d.ts). Lenient: unknown
// fields pass through, so new provider fields do not break validation.
import { z } from 'zod';

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish();

const openaiTextPartSchema = z.looseObject({ type: z.literal('text'), text: z.string() });

const imagePartSchema = z.looseObject({
  type: z.literal('image_url'),
  image_url: z.looseObject({ url: z.string().min(1), detail: z.enum(['auto', 'low', 'high']).optional() }),
});

// Audio and files are accepted by the schema and refused by the converter with a clear message.
const otherUserPartSchema = z.looseObject({ type: z.enum(['input_audio', 'file']) });

const openaiUserPartSchema = z.discriminatedUnion('type', [openaiTextPartSchema, imagePartSchema, otherUserPartSchema]);

const refusalPartSchema = z.looseObject({ type: z.literal('refusal'), refusal: z.string() });

const openaiToolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function').optional(),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const textContent = z.union([z.string(), z.array(openaiTextPartSchema)]);

export const openaiMessageSchema = z.discriminatedUnion('role', [
  z.looseObject({ role: z.enum(['system', 'developer']), content: textContent, name: z.string().optional() }),
  z.looseObject({
    role: z.literal('user'),
    content: z.union([z.string(), z.array(openaiUserPartSchema)]),
    name: z.string().optional(),
  }),
  z.looseObject({
    role: z.literal('assistant'),
    content: nullish(z.union([z.string(), z.array(z.discriminatedUnion('type', [openaiTextPartSchema, refusalPartSchema]))])),
    tool_calls: nullish(z.array(openaiToolCallSchema)),
    refusal: nullish(z.string()),
    // DeepSeek, vLLM and others send the model's reasoning back in this field.
    reasoning_content: nullish(z.string()),
    name: z.string().optional(),
  }),
  z.looseObject({ role: z.literal('tool'), tool_call_id: z.string(), content: textContent }),
]);

const openaiToolSchema = z.looseObject({
  type: z.literal('function'),
  function: z.looseObject({
    name: z.string().min(1),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
    strict: nullish(z.boolean()),
  }),
});

const openaiToolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), function: z.looseObject({ name: z.string() }) }),
]);

const openaiResponseFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    json_schema: z.looseObject({
      name: z.string(),
      description: z.string().optional(),
      schema: z.record(z.string(), z.unknown()).optional(),
      strict: nullish(z.boolean()),
    }),
  }),
]);

export const openaiChatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(openaiMessageSchema).min(1),
  tools: nullish(z.array(openaiToolSchema)),
  tool_choice: nullish(openaiToolChoiceSchema),
  parallel_tool_calls: nullish(z.boolean()),
  max_tokens: nullish(z.int().min(1)),
  max_completion_tokens: nullish(z.int().min(1)),
  temperature: nullish(z.number().min(0).max(2)),
  top_p: nullish(z.number().min(0).max(1)),
  frequency_penalty: nullish(z.number().min(-2).max(2)),
  presence_penalty: nullish(z.number().min(-2).max(2)),
  seed: nullish(z.int()),
  n: nullish(z.int().min(1)),
  stop: nullish(z.union([z.string(), z.array(z.string()).max(4)])),
  response_format: nullish(openaiResponseFormatSchema),
  reasoning_effort: nullish(z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'])),
  stream: nullish(z.boolean()),
  stream_options: nullish(z.looseObject({ include_usage: z.boolean().optional() })),
  user: nullish(z.string()),
  metadata: nullish(z.record(z.string(), z.string())),
});

export type OpenAIChatRequest = z.output<typeof openaiChatRequestSchema>;
export type OpenAIMessage = z.output<typeof openaiMessageSchema>;

const openaiUsageSchema = z.looseObject({
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number().optional(),
  prompt_tokens_details: nullish(z.looseObject({ cached_tokens: nullish(z.number()), cache_write_tokens: nullish(z.number()) })),
  completion_tokens_details: nullish(z.looseObject({ reasoning_tokens: nullish(z.number()) })),
});

export const openaiChatResponseSchema = z.looseObject({
  id: z.string(),
  model: z.string(),
  created: z.number().optional(),
  choices: z.array(
    z.looseObject({
      index: z.number(),
      message: z.looseObject({
        role: z.literal('assistant'),
        content: nullish(z.string()),
        refusal: nullish(z.string()),
        reasoning_content: nullish(z.string()),
        tool_calls: nullish(z.array(openaiToolCallSchema)),
      }),
      finish_reason: nullish(z.string()),
    }),
  ),
  usage: nullish(openaiUsageSchema),
});

export const openaiChatChunkSchema = z.looseObject({
  id: z.string(),
  model: z.string().optional(),
  choices: z.array(
    z.looseObject({
      index: z.number(),
      delta: z
        .looseObject({
          role: nullish(z.string()),
          content: nullish(z.string()),
          refusal: nullish(z.string()),
          reasoning_content: nullish(z.string()),
          tool_calls: nullish(
            z.array(
              z.looseObject({
                index: z.number(),
                id: nullish(z.string()),
                type: nullish(z.string()),
                function: nullish(z.looseObject({ name: nullish(z.string()), arguments: nullish(z.string()) })),
              }),
            ),
          ),
        })
        .optional(),
      finish_reason: nullish(z.string()),
    }),
  ),
  usage: nullish(openaiUsageSchema),
});

export const openaiErrorSchema = z.looseObject({
  error: z.looseObject({
    message: z.string(),
    type: nullish(z.string()),
    param: nullish(z.string()),
    code: nullish(z.union([z.string(), z.number()])),
  }),
});
