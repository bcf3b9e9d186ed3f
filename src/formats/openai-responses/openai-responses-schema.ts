// OpenAI /v1/responses wire shapes (checked against openai's resources/responses/responses.d.ts). Lenient:
// unknown fields pass through. Input items are validated one by one (see openai-responses-input.ts), so a
// 400 names the exact item and field, and item types the hub cannot carry get a message of their own.
import { RESPONSES_INCLUDABLE } from './openai-responses-include.ts';
import { z } from 'zod';

const nullish = <T extends z.ZodType>(schema: T) => schema.nullish();

// ---- request: input items -------------------------------------------------------------------------------

export const responsesInputImageSchema = z.looseObject({
  type: z.literal('input_image'),
  image_url: nullish(z.string().min(1)),
  file_id: nullish(z.string()),
  detail: nullish(z.enum(['auto', 'low', 'high', 'original'])),
});

/** A file part: its bytes as file_data (a data: URL, or bare base64), a file_url, or an OpenAI file_id. */
export const responsesInputFileSchema = z.looseObject({
  type: z.literal('input_file'),
  file_data: nullish(z.string().min(1)),
  file_url: nullish(z.string().min(1)),
  file_id: nullish(z.string()),
  filename: nullish(z.string()),
});

/** Any content part: known ones are read by the converter, input_file / input_audio are refused there. */
const responsesContentPartSchema = z.looseObject({ type: z.string() });

export const responsesMessageItemSchema = z.looseObject({
  type: z.literal('message').optional(),
  role: z.enum(['user', 'assistant', 'system', 'developer']),
  content: z.union([z.string(), z.array(responsesContentPartSchema)]),
  id: nullish(z.string()),
  status: nullish(z.string()),
});

export const responsesFunctionCallItemSchema = z.looseObject({
  type: z.literal('function_call'),
  call_id: z.string().min(1),
  name: z.string().min(1),
  arguments: z.string(),
  id: nullish(z.string()),
  status: nullish(z.string()),
});

export const responsesFunctionCallOutputItemSchema = z.looseObject({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1),
  output: z.union([z.string(), z.array(responsesContentPartSchema)]),
  id: nullish(z.string()),
  status: nullish(z.string()),
});

const summaryTextSchema = z.looseObject({ type: z.string().optional(), text: z.string() });

export const responsesReasoningItemSchema = z.looseObject({
  type: z.literal('reasoning'),
  id: nullish(z.string()),
  summary: z.array(summaryTextSchema),
  content: nullish(z.array(summaryTextSchema)),
  encrypted_content: nullish(z.string()),
  status: nullish(z.string()),
});

/** The outer shape of every input item; the converter picks the specific schema by `type` (or `role`). */
const responsesInputItemSchema = z.looseObject({ type: z.string().optional() });

// ---- request: tools and options -------------------------------------------------------------------------

export const responsesFunctionToolSchema = z.looseObject({
  type: z.literal('function'),
  name: z.string().min(1),
  description: nullish(z.string()),
  parameters: nullish(z.record(z.string(), z.unknown())),
  strict: nullish(z.boolean()),
});

/** Every tool: function tools are read, hosted ones (web_search, file_search, …) are refused by name. */
const responsesToolSchema = z.looseObject({ type: z.string() });

const responsesToolChoiceSchema = z.union([
  z.enum(['none', 'auto', 'required']),
  z.looseObject({ type: z.literal('function'), name: z.string().min(1) }),
  z.looseObject({ type: z.literal('allowed_tools'), mode: z.enum(['auto', 'required']), tools: z.array(z.looseObject({ type: z.string(), name: z.string().optional() })) }),
  z.looseObject({ type: z.string() }),
]);

const responsesTextFormatSchema = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text') }),
  z.looseObject({ type: z.literal('json_object') }),
  z.looseObject({
    type: z.literal('json_schema'),
    name: z.string().min(1),
    schema: z.record(z.string(), z.unknown()),
    description: nullish(z.string()),
    strict: nullish(z.boolean()),
  }),
]);

export const responsesRequestSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(responsesInputItemSchema)]).optional(),
  instructions: nullish(z.string()),
  tools: nullish(z.array(responsesToolSchema)),
  tool_choice: nullish(responsesToolChoiceSchema),
  parallel_tool_calls: nullish(z.boolean()),
  max_output_tokens: nullish(z.int().min(1)),
  temperature: nullish(z.number().min(0).max(2)),
  top_p: nullish(z.number().min(0).max(1)),
  text: nullish(z.looseObject({ format: nullish(responsesTextFormatSchema), verbosity: nullish(z.enum(['low', 'medium', 'high'])) })),
  reasoning: nullish(
    z.looseObject({
      effort: nullish(z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'])),
      summary: nullish(z.enum(['auto', 'concise', 'detailed'])),
      generate_summary: nullish(z.enum(['auto', 'concise', 'detailed'])),
    }),
  ),
  stream: nullish(z.boolean()),
  metadata: nullish(z.record(z.string(), z.string())),
  user: nullish(z.string()),
  previous_response_id: nullish(z.string()),
  conversation: nullish(z.unknown()),
  prompt: nullish(z.unknown()),
  background: nullish(z.boolean()),
  store: nullish(z.boolean()),
  include: nullish(z.array(z.enum(RESPONSES_INCLUDABLE))),
});

export type ResponsesRequest = z.output<typeof responsesRequestSchema>;

// ---- response ---------------------------------------------------------------------------------------------

const responsesUsageSchema = z.looseObject({
  input_tokens: z.number(),
  output_tokens: z.number(),
  total_tokens: nullish(z.number()),
  input_tokens_details: nullish(z.looseObject({ cached_tokens: nullish(z.number()), cache_write_tokens: nullish(z.number()) })),
  output_tokens_details: nullish(z.looseObject({ reasoning_tokens: nullish(z.number()) })),
});

/** Output items: the converter reads message, function_call and reasoning, and warns about the others. */
const responsesOutputItemSchema = z.looseObject({ type: z.string() });

export const responsesResponseSchema = z.looseObject({
  id: z.string(),
  object: z.literal('response').optional(),
  model: z.string(),
  status: nullish(z.string()),
  output: z.array(responsesOutputItemSchema),
  incomplete_details: nullish(z.looseObject({ reason: nullish(z.string()) })),
  error: nullish(z.looseObject({ code: nullish(z.string()), message: z.string() })),
  usage: nullish(responsesUsageSchema),
});

// ---- stream -----------------------------------------------------------------------------------------------

/** One stream event: `type` picks the fields the reader uses; everything else passes through. */
export const responsesStreamEventSchema = z.looseObject({
  type: z.string(),
  sequence_number: nullish(z.number()),
  output_index: nullish(z.number()),
  summary_index: nullish(z.number()),
  item_id: nullish(z.string()),
  delta: nullish(z.string()),
  arguments: nullish(z.string()),
  item: nullish(responsesOutputItemSchema),
  response: nullish(responsesResponseSchema),
  code: nullish(z.string()),
  message: nullish(z.string()),
  param: nullish(z.string()),
});
