// A zod check of Response objects and stream events, derived from the Open Responses spec
// (openresponses/openresponses schema/components/schemas/ResponseResource.json: its `required` list and
// field types) and the `openai` SDK's Response and stream event types. Strict about presence and type:
// a missing field or a null where the spec wants a number fails.
import { z } from 'zod';

const nullable = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

const outputText = z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()), logprobs: z.array(z.unknown()) });
const summaryText = z.object({ type: z.literal('summary_text'), text: z.string() });

const messageItem = z.object({
  id: z.string().min(1), type: z.literal('message'), role: z.literal('assistant'),
  status: z.enum(['in_progress', 'completed', 'incomplete']), content: z.array(outputText),
});
const functionCallItem = z.object({
  id: z.string().min(1), type: z.literal('function_call'), call_id: z.string().min(1), name: z.string().min(1),
  arguments: z.string(), status: z.enum(['in_progress', 'completed', 'incomplete']),
});
const reasoningItem = z.object({ id: z.string().min(1), type: z.literal('reasoning'), summary: z.array(summaryText), encrypted_content: nullable(z.string()).optional() });
const outputItem = z.discriminatedUnion('type', [messageItem, functionCallItem, reasoningItem]);

const usage = z.object({
  input_tokens: z.number().int().min(0), output_tokens: z.number().int().min(0), total_tokens: z.number().int().min(0),
  input_tokens_details: z.object({ cached_tokens: z.number().int().min(0) }),
  output_tokens_details: z.object({ reasoning_tokens: z.number().int().min(0) }),
});

const functionTool = z.object({ type: z.literal('function'), name: z.string(), description: nullable(z.string()), parameters: nullable(z.record(z.string(), z.unknown())), strict: nullable(z.boolean()) });

/** Every field ResponseResource.json requires, with its type. */
export const responseResource = z.object({
  id: z.string().min(1), object: z.literal('response'), created_at: z.number().int(), completed_at: nullable(z.number().int()),
  status: z.enum(['in_progress', 'completed', 'incomplete', 'failed']), incomplete_details: nullable(z.object({ reason: z.string() })),
  model: z.string().min(1), previous_response_id: nullable(z.string()), instructions: nullable(z.string()), output: z.array(outputItem),
  error: nullable(z.object({ code: z.string(), message: z.string() })), tools: z.array(functionTool),
  tool_choice: z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.string() }).loose()]),
  truncation: z.enum(['auto', 'disabled']), parallel_tool_calls: z.boolean(),
  text: z.object({ format: z.object({ type: z.enum(['text', 'json_object', 'json_schema']) }).loose() }).loose(),
  top_p: z.number(), presence_penalty: z.number(), frequency_penalty: z.number(), top_logprobs: z.number().int(), temperature: z.number(),
  reasoning: nullable(z.object({ effort: nullable(z.string()), summary: nullable(z.string()) }).loose()), user: nullable(z.string()),
  usage: nullable(usage), max_output_tokens: nullable(z.number().int()), max_tool_calls: nullable(z.number().int()), store: z.boolean(),
  background: z.boolean(), service_tier: z.string(), metadata: z.record(z.string(), z.string()), safety_identifier: nullable(z.string()),
  prompt_cache_key: nullable(z.string()),
});

const where = { item_id: z.string().min(1), output_index: z.number().int().min(0) };
const seq = { sequence_number: z.number().int().min(0) };
const withResponse = (type: string) => z.object({ type: z.literal(type), response: responseResource, ...seq });

/** The stream events a text, reasoning or function-call answer is made of, each with its required fields. */
export const streamEvent = z.discriminatedUnion('type', [
  withResponse('response.created'), withResponse('response.in_progress'), withResponse('response.completed'),
  withResponse('response.incomplete'), withResponse('response.failed'),
  z.object({ type: z.literal('response.output_item.added'), output_index: z.number().int(), item: outputItem, ...seq }),
  z.object({ type: z.literal('response.output_item.done'), output_index: z.number().int(), item: outputItem, ...seq }),
  z.object({ type: z.literal('response.content_part.added'), ...where, content_index: z.number().int(), part: outputText, ...seq }),
  z.object({ type: z.literal('response.content_part.done'), ...where, content_index: z.number().int(), part: outputText, ...seq }),
  z.object({ type: z.literal('response.output_text.delta'), ...where, content_index: z.number().int(), delta: z.string(), logprobs: z.array(z.unknown()), ...seq }),
  z.object({ type: z.literal('response.output_text.done'), ...where, content_index: z.number().int(), text: z.string(), logprobs: z.array(z.unknown()), ...seq }),
  z.object({ type: z.literal('response.function_call_arguments.delta'), ...where, delta: z.string(), ...seq }),
  z.object({ type: z.literal('response.function_call_arguments.done'), ...where, arguments: z.string(), ...seq }),
  z.object({ type: z.literal('response.reasoning_summary_part.added'), ...where, summary_index: z.number().int(), part: summaryText, ...seq }),
  z.object({ type: z.literal('response.reasoning_summary_part.done'), ...where, summary_index: z.number().int(), part: summaryText, ...seq }),
  z.object({ type: z.literal('response.reasoning_summary_text.delta'), ...where, summary_index: z.number().int(), delta: z.string(), ...seq }),
  z.object({ type: z.literal('response.reasoning_summary_text.done'), ...where, summary_index: z.number().int(), text: z.string(), ...seq }),
]);

/** The schema's complaints about a value, as `path: message` lines (empty when it conforms). */
export function schemaErrors(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}
