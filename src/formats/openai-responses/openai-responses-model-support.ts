// A Responses request fitted to what its model declares it supports (src/hub/hub-model-support.ts):
// reasoning settings for a model that does not reason (Codex sends reasoning.summary "auto" to every model
// it has no metadata for), summaries for one that gives none, tools for one without tools, images for one
// that cannot see them, max_output_tokens above the model's limit or beyond its context window (checked
// on the conversation as sent, once a stored one is put back: responsesContextFit).
import { IMAGE_LEFT_OUT, isSet, ModelFitting, statedOutput, type ContextOverflowWording, type FittedRequest, type ModelSupport, type PromptSize } from '../../hub/hub-model-support.ts';

/** OpenAI's words for the Responses API; Codex keys on the code (context_length_exceeded: it then compacts), not the text. */
const RESPONSES_CONTEXT_WORDING: ContextOverflowWording = {
  promptTooLong: () => ({ message: 'Your input exceeds the context window of this model. Please adjust your input and try again.', param: 'input' }),
  withOutputTooLong: (prompt, output, window) => ({ message: `Your input exceeds the context window of this model: about ${prompt} input tokens and max_output_tokens ${output} exceed ${window}. Please adjust your input and try again.`, param: 'max_output_tokens' }),
};

export function fitResponsesRequestToModel(body: Record<string, unknown>, model: string, support: ModelSupport, prompt: PromptSize | null): FittedRequest {
  const fit = new ModelFitting(body, model, support);
  const reasoning = body.reasoning as Record<string, unknown> | null | undefined;
  if (support.reasoning === false && reasoning && (isSet(reasoning.effort) || isSet(reasoning.summary) || isSet(reasoning.generate_summary))) {
    fit.change('reasoning', 'does not reason', (copy) => {
      delete copy.reasoning;
      if (Array.isArray(copy.include)) copy.include = copy.include.filter((value) => value !== 'reasoning.encrypted_content');
    });
  } else if ((support.reasoning === false || support.reasoning_summaries === false) && reasoning && (isSet(reasoning.summary) || isSet(reasoning.generate_summary))) {
    fit.change('reasoning.summary', 'gives no reasoning summaries', (copy) => {
      const { summary: _summary, generate_summary: _generate, ...rest } = reasoning;
      copy.reasoning = rest;
    });
  }
  if (support.tools === false && Array.isArray(body.tools) && body.tools.length > 0) {
    fit.change('tools', 'does not call tools', (copy) => {
      delete copy.tools;
      delete copy.tool_choice;
      delete copy.parallel_tool_calls;
    });
  }
  if (support.image_input === false && Array.isArray(body.input) && body.input.some(hasImage)) {
    fit.change('input_image', 'does not read images', (copy) => {
      copy.input = (copy.input as unknown[]).map(withoutImages);
    });
  }
  fit.lowerLimit('max_output_tokens', body.max_output_tokens, support.maxOutputTokens, (copy, limit) => {
    copy.max_output_tokens = limit;
  });
  fitResponsesContext(fit, body, support, prompt);
  return fit.result();
}

function fitResponsesContext(fit: ModelFitting, body: Record<string, unknown>, support: ModelSupport, prompt: PromptSize | null): void {
  fit.fitContext('max_output_tokens', statedOutput(body.max_output_tokens, support.maxOutputTokens), prompt, RESPONSES_CONTEXT_WORDING, (copy, limit) => {
    copy.max_output_tokens = limit;
  });
}

/**
 * The context window of a Responses call as it will be sent (`sent`: the body, or the conversation rebuilt
 * from previous_response_id): null when it fits, or max_output_tokens lowered to the room left and the
 * warning saying so. A prompt that does not fit throws the context-length error.
 */
export function responsesContextFit(sent: Record<string, unknown>, model: string, support: ModelSupport, prompt: PromptSize): { maxOutputTokens: number; warnings: string[] } | null {
  const fit = new ModelFitting(sent, model, support);
  fitResponsesContext(fit, sent, support, prompt);
  const { body, warnings } = fit.result();
  return body === sent ? null : { maxOutputTokens: body.max_output_tokens as number, warnings };
}

const isImage = (part: unknown) => (part as { type?: unknown } | null)?.type === 'input_image';

function hasImage(item: unknown): boolean {
  const content = (item as { content?: unknown } | null)?.content;
  return Array.isArray(content) && content.some(isImage);
}

function withoutImages(item: unknown): unknown {
  if (!hasImage(item)) return item;
  const message = item as { content: unknown[] };
  const kept = message.content.filter((part) => !isImage(part));
  return { ...message, content: kept.length > 0 ? kept : [{ type: 'input_text', text: IMAGE_LEFT_OUT }] };
}
