// The request's `include`: extra output a Responses client asks for. What a translated answer can honour:
// - reasoning.encrypted_content: a reasoning item's sealed content (here, the upstream's thinking
//   signature or redacted thinking) is in the answer only when asked for, as on OpenAI. Clients that keep
//   their own history (store: false) ask for it and send the items back; with store on the gateway keeps
//   the sealed items itself, so previous_response_id and item_reference carry the signatures regardless.
// - message.output_text.logprobs: no other provider returns logprobs to the gateway; the parts carry an
//   empty list and the conversion warns (logged) that they were not available.
// - the rest name outputs of OpenAI's hosted tools and of input images by URL, which a translated request
//   never has (hosted tools are refused): nothing to add.
// An unknown value is refused by the schema, as OpenAI refuses it.
import type { Warnings } from '../../hub/hub-warnings.ts';

export const RESPONSES_INCLUDABLE = [
  'file_search_call.results', 'web_search_call.results', 'web_search_call.action.sources', 'message.input_image.image_url',
  'computer_call_output.output.image_url', 'code_interpreter_call.outputs', 'reasoning.encrypted_content', 'message.output_text.logprobs',
] as const;

export const ENCRYPTED_REASONING = 'reasoning.encrypted_content';

function includeOf(requestBody: unknown): unknown[] {
  const include = requestBody !== null && typeof requestBody === 'object' ? (requestBody as { include?: unknown }).include : undefined;
  return Array.isArray(include) ? include : [];
}

/** Whether the answer to this request may carry reasoning items' encrypted_content. */
export const wantsEncryptedReasoning = (requestBody: unknown): boolean => includeOf(requestBody).includes(ENCRYPTED_REASONING);

/** The request body as one that asks for encrypted reasoning: what the gateway keeps is always whole. */
export function askingForEncryptedReasoning(requestBody: unknown): Record<string, unknown> {
  const body = requestBody !== null && typeof requestBody === 'object' ? (requestBody as Record<string, unknown>) : {};
  return wantsEncryptedReasoning(body) ? body : { ...body, include: [...includeOf(body), ENCRYPTED_REASONING] };
}

/** An output item without its encrypted_content (a copy; other items are returned as they are). */
export function withoutEncryptedReasoning<T>(item: T): T {
  if (item === null || typeof item !== 'object' || !('encrypted_content' in item)) return item;
  const { encrypted_content: _sealed, ...rest } = item as Record<string, unknown>;
  return rest as T;
}

/** A Response object without encrypted reasoning in its output (a copy). */
export function responseWithoutEncryptedReasoning(response: Record<string, unknown>): Record<string, unknown> {
  return Array.isArray(response.output) ? { ...response, output: response.output.map(withoutEncryptedReasoning) } : response;
}

/** Include values a translated answer cannot fill, for the conversion's (logged) warnings. */
export function warnUnavailableIncludes(include: readonly string[] | null | undefined, warnings: Warnings): void {
  if (include?.includes('message.output_text.logprobs')) {
    warnings.dropped('include', "'message.output_text.logprobs': this model's provider returns no logprobs; output_text parts carry an empty list.");
  }
}
